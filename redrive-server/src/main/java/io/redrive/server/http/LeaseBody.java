package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.redrive.lease.LeaseRequest;
import java.util.List;

/**
 * {@code POST /v1/queues/{name}/lease}; every field optional ({@code wait} is the JSON name of
 * {@code waitFor}: a record cannot have a component named {@code wait}).
 */
record LeaseBody(
    @ApiField(maxLength = 200) String worker,
    @ApiField(min = 1, max = LeaseRequest.MAX_BATCH) Integer max,
    @ApiField(format = "duration", description = "1ms to 12h") String leaseTimeout,
    @ApiField(format = "duration", description = "at most the server's maxLeaseWait")
        @JsonProperty("wait")
        String waitFor,
    @ApiField(
            maxItems = LeaseRequest.MAX_TYPES,
            description =
                "lease only messages of these types, leaving the others untouched"
                    + " (absent or empty: every type)")
        List<String> types) {}

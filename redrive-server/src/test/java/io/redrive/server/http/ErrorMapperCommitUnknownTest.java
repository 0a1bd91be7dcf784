package io.redrive.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.error.CommitUnknownException;
import io.redrive.error.StoreException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorMapperCommitUnknownTest {
  private final ErrorMapper mapper = new ErrorMapper(new JsonCodec());

  @Test
  void commitUnknown_is503CommitUnknownWithRetryAfter() {
    var cause = new SQLException("An I/O error occurred while sending to the backend", "08006");
    ErrorMapper.ApiError error =
        mapper.toError(
            new CompletionException(
                new CommitUnknownException("complete failed while committing", "08006", cause)),
            "POST /v1/complete");

    assertThat(error.status()).isEqualTo(503);
    assertThat(error.code()).isEqualTo("COMMIT_UNKNOWN");
    assertThat(error.message()).contains("may have happened").contains("retry idempotently");
    assertThat(ErrorMapper.retryAfter(error)).isEqualTo("1");
  }

  @Test
  void plainStoreError_hasNoRetryAfterFromThisRule() {
    ErrorMapper.ApiError error =
        mapper.toError(new StoreException("lease failed", "42703", false, null), "POST /x");

    assertThat(error.code()).isEqualTo("STORE_ERROR");
    assertThat(ErrorMapper.retryAfter(error)).isNull();
  }
}

package io.redrive.workflow;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** The default JSON settings of payloads (docs/workflows.md, "Java API"). */
final class Json {
  private Json() {}

  /**
   * Unknown properties ignored (fields added by a newer build survive a rolling deploy), Java time
   * types as ISO text.
   */
  static ObjectMapper defaultMapper() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .configure(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, false);
  }
}

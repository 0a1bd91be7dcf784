package io.redrive.opentelemetry;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Map;

/** Message headers as the propagators' carrier: read from a delivery, written for an enqueue. */
enum HeaderCarrier
    implements TextMapGetter<Map<String, String>>, TextMapSetter<Map<String, String>> {
  INSTANCE;

  @Override
  public Iterable<String> keys(Map<String, String> headers) {
    return headers.keySet();
  }

  @Override
  public String get(Map<String, String> headers, String key) {
    return headers == null ? null : headers.get(key);
  }

  @Override
  public void set(Map<String, String> headers, String key, String value) {
    if (headers != null) {
      headers.put(key, value);
    }
  }
}

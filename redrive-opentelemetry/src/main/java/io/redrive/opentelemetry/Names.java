package io.redrive.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute names Redrive's spans and events carry: OpenTelemetry's messaging semantic
 * conventions where one fits (spelled out, so no semconv artifact is needed), {@code redrive.*} for
 * the rest. docs/tracing.md lists them; renaming one breaks users' dashboards.
 */
final class Names {
  private Names() {}

  /** The instrumentation scope name of every Redrive span. */
  static final String SCOPE = "io.redrive";

  static final String SYSTEM = "redrive";

  static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
  static final AttributeKey<String> DESTINATION =
      AttributeKey.stringKey("messaging.destination.name");
  static final AttributeKey<String> OPERATION_TYPE =
      AttributeKey.stringKey("messaging.operation.type");
  static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("messaging.operation.name");
  static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
  static final AttributeKey<Long> BATCH_COUNT =
      AttributeKey.longKey("messaging.batch.message_count");

  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("redrive.attempt");
  static final AttributeKey<Long> MAX_ATTEMPTS = AttributeKey.longKey("redrive.max_attempts");
  static final AttributeKey<String> WORKER = AttributeKey.stringKey("redrive.worker");
  static final AttributeKey<String> MESSAGE_TYPE = AttributeKey.stringKey("redrive.message.type");
  static final AttributeKey<String> REASON = AttributeKey.stringKey("redrive.failure.reason");
  static final AttributeKey<String> DETAIL = AttributeKey.stringKey("redrive.failure.message");
  static final AttributeKey<Long> DELAY_MS = AttributeKey.longKey("redrive.retry.delay_ms");
  static final AttributeKey<String> DEAD_LETTER_QUEUE =
      AttributeKey.stringKey("redrive.dead_letter_queue");

  static final AttributeKey<String> INSTANCE_ID =
      AttributeKey.stringKey("redrive.workflow.instance_id");
  static final AttributeKey<String> WORKFLOW_NAME = AttributeKey.stringKey("redrive.workflow.name");
  static final AttributeKey<String> WORKFLOW_VERSION =
      AttributeKey.stringKey("redrive.workflow.version");
  static final AttributeKey<Long> EXECUTION_ID =
      AttributeKey.longKey("redrive.workflow.execution_id");
  static final AttributeKey<String> ACTIVITY_NAME =
      AttributeKey.stringKey("redrive.workflow.activity.name");
  static final AttributeKey<Long> ACTIVITY_SEQ =
      AttributeKey.longKey("redrive.workflow.activity.seq");
}

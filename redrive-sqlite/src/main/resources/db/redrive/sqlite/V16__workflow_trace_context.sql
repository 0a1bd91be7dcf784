-- Traced workflows (docs/tracing.md, "Workflows"): the W3C trace context (a JSON object of
-- traceparent/tracestate) that a start captured and every turn of the instance continues, so all
-- its turns and activities are one trace. NULL when the start was not traced; an engine of the
-- previous version neither writes nor reads it, so a rolling deploy keeps working.
ALTER TABLE redrive_wf_instances ADD COLUMN trace_context TEXT;

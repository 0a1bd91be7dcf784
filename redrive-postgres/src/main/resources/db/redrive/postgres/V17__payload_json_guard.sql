-- Finding messages by a payload field (docs/api.md, "Finding messages by a payload field") casts
-- the text payload to jsonb, and a payload that is not JSON must not match, never fail the query.
-- PostgreSQL 16 and later test that with pg_input_is_valid; on earlier servers this function does
-- the same (its exception block costs a subtransaction per row, so it is used only there).
CREATE OR REPLACE FUNCTION redrive_json_or_null(payload TEXT) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN payload::jsonb;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;

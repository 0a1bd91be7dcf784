-- The code build a turn runs, kept with its lease: a node that dies cannot say, so the turn row that
-- records its expiry takes the build from here (redrive_wf_turns.build exists since the workflow
-- store). NULL: the node names no build.
ALTER TABLE redrive_wf_instances ADD COLUMN leased_build TEXT;

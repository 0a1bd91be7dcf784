-- db-scheduler's table on PostgreSQL, as its documentation gives it for the 16.x releases
-- (db-scheduler/src/test/resources/postgresql_tables.sql, which its README links), without the
-- later releases' migrations (a nullable execution_time and a state column), which 16.7.1 does
-- not use. QueuePeers creates it in each run's fresh schema.
create table scheduled_tasks (
  task_name text not null,
  task_instance text not null,
  task_data bytea,
  execution_time timestamp with time zone not null,
  picked BOOLEAN not null,
  picked_by text,
  last_success timestamp with time zone,
  last_failure timestamp with time zone,
  consecutive_failures INT,
  last_heartbeat timestamp with time zone,
  version BIGINT not null,
  priority SMALLINT,
  PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time);
CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
CREATE INDEX priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc);

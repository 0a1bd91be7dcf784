/**
 * The databases a benchmark runs on: a {@link io.redrive.bench.contender.Target} per store kind
 * hands out a fresh, isolated {@link io.redrive.bench.contender.BenchDatabase} per run (a new
 * SQLite file or a new PostgreSQL schema), with Redrive stores over it and the raw-SQL baseline
 * statements beside.
 */
package io.redrive.bench.contender;

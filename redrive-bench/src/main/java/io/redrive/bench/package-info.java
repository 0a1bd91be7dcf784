/**
 * The queue benchmark: {@link io.redrive.bench.BenchMain} runs each scenario's cells on SQLite and
 * PostgreSQL, Redrive and the raw-SQL baseline interleaved per repetition, and writes the results
 * as JSON and as the Markdown of {@code docs/benchmarks.md}.
 */
package io.redrive.bench;

/**
 * The test kit for applications: a real engine per test class with a controllable clock, assertions
 * on what was enqueued, {@code drain} and inline mode (docs/testing.md).
 */
package io.redrive.test;

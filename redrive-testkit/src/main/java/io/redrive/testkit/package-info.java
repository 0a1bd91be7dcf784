/**
 * Test support shipped to users and used by every store: a controllable clock, the store fixture
 * contract and the store compliance suite.
 */
package io.redrive.testkit;

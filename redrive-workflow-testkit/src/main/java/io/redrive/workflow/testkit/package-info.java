/**
 * The failure-point explorer: runs an orchestration with the real runtime on an embedded SQLite
 * store and a clock that only moves when the explorer moves it, then again once per failure point
 * (a crash before a turn commit, a lost activity settle, an activity lease running out), and
 * reports what came out differently and how often each activity's handler ran.
 */
package io.redrive.workflow.testkit;

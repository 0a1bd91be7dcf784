package io.redrive.test;

/** The kit's queue half on the default temporary SQLite file. */
@RedriveTest
class SqliteKitTest extends KitContract {}

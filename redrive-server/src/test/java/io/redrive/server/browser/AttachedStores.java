package io.redrive.server.browser;

import io.redrive.store.Store;
import io.redrive.testkit.DatabaseAddress;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import java.util.Map;

/**
 * The {@link StoreFixture} a child-JVM worker ({@link io.redrive.testkit.process.ChildWorker})
 * loads to open a {@link BrowserStore} database by its {@link DatabaseAddress}: property {@code
 * store} ({@code sqlite} with {@code file}, or {@code postgres} with {@code url} and {@code
 * schema}). It only attaches; databases come from {@link BrowserStore#newDatabase()}.
 */
public final class AttachedStores implements StoreFixture {
  /** The instance {@link DatabaseAddress#open()} looks up. */
  public static final AttachedStores INSTANCE = new AttachedStores();

  private AttachedStores() {}

  static DatabaseAddress address(Map<String, String> properties) {
    return new DatabaseAddress(AttachedStores.class.getName(), properties);
  }

  @Override
  public String name() {
    return "browser";
  }

  /** Not offered: the browser tests make databases with {@link BrowserStore#newDatabase()}. */
  @Override
  public TestDatabase newDatabase() {
    throw new UnsupportedOperationException("use BrowserStore.newDatabase()");
  }

  @Override
  public Store attach(Map<String, String> properties) {
    return BrowserStore.open(properties);
  }
}

package io.redrive.testkit.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.StoreException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.ThroughputPoint;
import io.redrive.store.FindMessageParams;
import io.redrive.store.Store;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Opening a store on the databases users really have: empty, reopened, upgraded from the earlier
 * layout, full of application tables, beside an application's own Flyway, migrated by an operator;
 * and enqueueing on the application's own connection. Every store module runs it.
 */
public abstract class MigrationContract {
  private static final String HISTORY = "redrive_schema_history";
  private static final String LEGACY_HISTORY = "flyway_schema_history";
  private static final String LEGACY_ID = "018bcfe5-6800-7000-8000-00000000a001";
  private static final List<String> WORKFLOW_TABLES =
      List.of(
          "redrive_wf_instances",
          "redrive_wf_executions",
          "redrive_wf_history",
          "redrive_wf_inbox",
          "redrive_wf_activities",
          "redrive_wf_turns",
          "redrive_wf_nodes");

  protected MigrationDatabase db;

  /** The store under test. */
  protected abstract MigrationFixture fixture();

  @BeforeEach
  void newDatabase() {
    db = fixture().newDatabase();
  }

  @AfterEach
  void closeDatabase() {
    db.close();
  }

  @Test
  void open_emptyDatabase_createsTablesWithOwnHistory() {
    roundTrip(db.open(), "fresh");

    assertThat(db.redriveTableExists("redrive_messages")).isTrue();
    assertThroughputTables();
    assertWorkflowTables();
    assertThat(db.historyScripts(HISTORY)).isNotEmpty().allMatch(s -> s.endsWith(".sql"));
    assertThat(db.redriveTableExists(LEGACY_HISTORY)).isFalse();
  }

  @Test
  void open_again_keepsMessagesAndAppliesNothing() {
    Redrive first = Redrive.builder(db.open()).build();
    first.createQueue("kept");
    String id = first.enqueue(message("kept")).id();
    first.close();
    List<String> history = db.historyScripts(HISTORY);

    Redrive second = Redrive.builder(db.open()).build();

    assertThat(second.getMessage(id).queue()).isEqualTo("kept");
    assertThat(db.historyScripts(HISTORY)).isEqualTo(history);
    assertThat(db.migrate()).isEmpty();
    second.close();
  }

  @Test
  void open_manyNodesAtOnceOnAnEmptyDatabase_allOpenOnOneSchema() throws Exception {
    int nodes = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(nodes);
    try {
      List<Future<Store>> opened = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        Callable<Store> open =
            () -> {
              start.await();
              return db.open();
            };
        opened.add(pool.submit(open));
      }
      start.countDown();
      for (Future<Store> f : opened) {
        assertThat(f.get()).isNotNull();
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> scripts = db.historyScripts(HISTORY);
    assertThat(scripts).doesNotHaveDuplicates();
    roundTrip(db.open(), "after-race");
  }

  @Test
  void open_besideApplicationTables_leavesThemAlone() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE app_invoices (id INTEGER PRIMARY KEY, total INTEGER NOT NULL)");
      s.execute("INSERT INTO app_invoices (id, total) VALUES (7, 42)");
    }

    roundTrip(db.open(), "with-app-tables");

    assertThat(count("SELECT COUNT(*) FROM app_invoices WHERE total = 42")).isEqualTo(1);
  }

  @Test
  void open_afterApplicationFlyway_bothHistoriesStaySeparate() throws SQLException {
    applicationFlyway("v1", false).migrate();

    roundTrip(db.open(), "after-app");
    applicationFlyway("v2", false).migrate();
    roundTrip(db.open(), "after-app-upgrade");

    assertThat(applicationScripts()).containsExactly("V1__orders.sql", "V2__customers.sql");
    assertThat(db.historyScripts(HISTORY)).noneMatch(s -> s.contains("orders"));
    assertThat(count("SELECT COUNT(*) FROM app_orders")).isEqualTo(1);
  }

  @Test
  void open_beforeApplicationFlyway_bothHistoriesStaySeparate() throws SQLException {
    roundTrip(db.open(), "before-app");

    applicationFlyway("v1", db.sharesApplicationSchema()).migrate();
    roundTrip(db.open(), "between-app");
    applicationFlyway("v2", db.sharesApplicationSchema()).migrate();

    assertThat(applicationScripts()).contains("V1__orders.sql", "V2__customers.sql");
    assertThat(db.historyScripts(HISTORY)).noneMatch(s -> s.contains("orders"));
    roundTrip(db.open(), "after-app");
  }

  @Test
  void open_earlierLayout_adoptsHistoryAndKeepsMessages() {
    db.createEarlierLayout();

    Store upgraded = db.open();
    Redrive redrive = Redrive.builder(upgraded).build();

    LeasedMessage legacy =
        redrive.lease(LeaseRequest.of("legacy", "w", 10)).leased().stream()
            .filter(m -> m.id().equals(LEGACY_ID))
            .findFirst()
            .orElseThrow();
    assertThat(legacy.attempt()).as("the earlier attempt still counts").isEqualTo(2);
    redrive.complete(legacy.token());
    assertThat(db.historyScripts(HISTORY)).isNotEmpty();
    assertThat(db.redriveTableExists(LEGACY_HISTORY))
        .as("the old history held only Redrive's rows, so it is gone")
        .isFalse();
    roundTrip(upgraded, "upgraded");
    assertWorkflowTables();
    redrive.close();
    roundTrip(db.open(), "upgraded-reopened");
  }

  @Test
  void open_activityCountersLayout_keepsTheCountersUnderTheirThroughputNames() throws SQLException {
    db.migrateThrough("activity_counters");
    assertThat(db.redriveTableExists("redrive_activity")).isTrue();
    long minute = Math.floorDiv(System.currentTimeMillis(), 60_000L);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO "
              + db.redriveTable("redrive_activity")
              + " (queue, minute, slot, enqueued, completed, failed, dead) VALUES ('counted', "
              + minute
              + ", 0, 4, 3, 2, 1)");
    }

    Redrive redrive = Redrive.builder(db.open()).build();

    List<ThroughputPoint> points = redrive.throughput(null, Duration.ofMinutes(5));
    assertThat(points.stream().mapToLong(ThroughputPoint::enqueued).sum()).isEqualTo(4);
    assertThat(points.stream().mapToLong(ThroughputPoint::completed).sum()).isEqualTo(3);
    assertThat(points.stream().mapToLong(ThroughputPoint::failed).sum()).isEqualTo(2);
    assertThat(points.stream().mapToLong(ThroughputPoint::dead).sum()).isEqualTo(1);
    assertThroughputTables();
    roundTrip(redrive, "after-rename");
    assertThat(
            redrive.throughput("after-rename", Duration.ofMinutes(2)).stream()
                .mapToLong(ThroughputPoint::completed)
                .sum())
        .as("new work counts in the renamed table")
        .isEqualTo(1);
    redrive.close();
  }

  @Test
  void validate_emptyDatabase_refusesNamingTheMissingVersionsAndChangesNothing() {
    assertThatThrownBy(db::openValidating)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("missing V1")
        .hasMessageContaining("redrive migrate");

    assertThat(db.redriveTableExists("redrive_messages")).isFalse();
    assertThat(db.redriveTableExists(HISTORY)).isFalse();
  }

  @Test
  void validate_afterMigrate_opens() {
    assertThat(db.migrate()).isNotEmpty();

    roundTrip(db.openValidating(), "validated");
  }

  @Test
  void printedSql_runByAnOperator_bringsTheSchemaToAValidatingStore() {
    String sql = db.pendingSql();
    assertThat(sql).contains("V1", HISTORY);
    assertThat(db.redriveTableExists("redrive_messages")).as("printing changes nothing").isFalse();

    db.runScript(sql);

    roundTrip(db.openValidating(), "operator-applied");
    assertThat(db.migrate()).as("nothing left to apply").isEmpty();
    assertThat(db.pendingSql()).contains("nothing pending");
  }

  @Test
  void enqueue_onApplicationConnection_visibleOnCommitGoneOnRollback() throws SQLException {
    Store store = db.openOnApplicationDataSource();
    Redrive redrive = Redrive.builder(store).build();
    redrive.createQueue("app");
    String committed;
    String rolledBack;
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE app_payments (id INTEGER PRIMARY KEY)");
        s.execute("INSERT INTO app_payments (id) VALUES (1)");
      }
      committed = redrive.enqueue(c, message("app")).id();
      c.commit();
      try (Statement s = c.createStatement()) {
        s.execute("INSERT INTO app_payments (id) VALUES (2)");
      }
      rolledBack = redrive.enqueue(c, message("app")).id();
      c.rollback();
    }

    assertThat(redrive.getMessage(committed).queue()).isEqualTo("app");
    assertThat(store.findMessage(new FindMessageParams(rolledBack, redrive.clock().instant())))
        .isEmpty();
    assertThat(count("SELECT COUNT(*) FROM app_payments")).isEqualTo(1);
    List<LeasedMessage> leased = redrive.lease(LeaseRequest.of("app", "w", 10)).leased();
    assertThat(leased).extracting(LeasedMessage::id).containsExactly(committed);
  }

  // ---- helpers ----

  /**
   * The throughput counters' tables (docs/engine.md, "Throughput counters") and their indexes under
   * the throughput names, whether created fresh or renamed from the activity counters' layout.
   */
  private void assertThroughputTables() {
    assertThat(db.redriveTableExists("redrive_throughput")).isTrue();
    assertThat(db.redriveTableExists("redrive_depth")).isTrue();
    assertThat(db.redriveTableExists("redrive_activity")).isFalse();
    assertThat(db.redriveIndexes("redrive_throughput"))
        .as("the primary key's index and the minute index")
        .hasSize(2)
        .allMatch(name -> name.contains("redrive_throughput"))
        .contains("redrive_throughput_minute");
  }

  /** The workflow store's tables (docs/workflows.md), created fresh or added by an upgrade. */
  private void assertWorkflowTables() {
    assertThat(WORKFLOW_TABLES).allMatch(db::redriveTableExists);
  }

  /** Creates a queue, enqueues, leases and completes one message on {@code store}. */
  private static void roundTrip(Store store, String queue) {
    roundTrip(Redrive.builder(store).build(), queue);
  }

  private static void roundTrip(Redrive redrive, String queue) {
    redrive.createQueue(queue);
    String id = redrive.enqueue(message(queue)).id();
    LeasedMessage m = redrive.lease(LeaseRequest.of(queue, "w", 1)).leased().get(0);
    assertThat(m.id()).isEqualTo(id);
    redrive.complete(m.token());
  }

  private static NewMessage message(String queue) {
    return NewMessage.builder(queue, "send-email").payload("{\"to\":\"ada@example.com\"}").build();
  }

  private Flyway applicationFlyway(String release, boolean baseline) {
    return Flyway.configure()
        .dataSource(db.applicationDataSource())
        .locations("classpath:io/redrive/testkit/migration/app/" + release)
        .baselineOnMigrate(baseline)
        .baselineVersion("0")
        .load();
  }

  private List<String> applicationScripts() throws SQLException {
    List<String> scripts = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT script FROM "
                    + LEGACY_HISTORY
                    + " WHERE version IS NOT NULL ORDER BY installed_rank")) {
      while (rs.next()) {
        scripts.add(rs.getString(1));
      }
    }
    return scripts;
  }

  private long count(String sql) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}

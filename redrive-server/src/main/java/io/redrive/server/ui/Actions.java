package io.redrive.server.ui;

import io.javalin.http.HttpStatus;
import io.redrive.Redrive;
import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.deadletter.Fingerprint;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.error.MessageNotFoundException;
import io.redrive.error.NotFoundException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.queue.Queue;
import io.redrive.server.auth.Permission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The dead-letter groups pages and every operator action on dead messages: retry, redrive and drop
 * of a group or of one message, each behind a confirmation page that shows what a dry run counted,
 * and run as a {@link BulkJobs} job whose page shows progress and result. Every action is
 * authorized again on the server (ADMIN on the queue), whatever buttons the page showed.
 */
final class Actions {
  private static final int GROUPS_PER_PAGE = 50;
  private static final Set<String> OPS = Set.of("retry", "redrive", "drop");

  private final Redrive redrive;
  private final Dashboard dashboard;
  private final BulkJobs jobs;

  Actions(Redrive redrive, Dashboard dashboard, BulkJobs jobs) {
    this.redrive = redrive;
    this.dashboard = dashboard;
    this.jobs = jobs;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", Dashboard.ROOT + "/dead", r -> groups(r, null));
    routes.add("GET", Dashboard.ROOT + "/queues/{queue}/dead", r -> groups(r, r.path("queue")));
    routes.add("GET", Dashboard.ROOT + "/confirm", this::confirm);
    routes.add("POST", Dashboard.ROOT + "/actions", this::act);
    routes.add("GET", Dashboard.ROOT + "/jobs/{id}", this::job);
  }

  private void groups(UiRequest r, String queue) {
    List<Queue> queues = redrive.listQueues();
    Set<String> visible = new HashSet<>();
    Map<String, Set<String>> sourcesOf = new HashMap<>(); // dead-letter queue → its sources
    for (Queue q : queues) {
      if (r.principal().mayAccess(q.name())) {
        visible.add(q.name());
      }
      if (q.policy().deadLetter() != null && q.policy().deadLetter().queue() != null) {
        sourcesOf
            .computeIfAbsent(q.policy().deadLetter().queue(), k -> new TreeSet<>())
            .add(q.name());
      }
    }
    if (queue != null && !visible.contains(queue)) {
      throw new QueueNotFoundException(queue);
    }
    Set<String> shown = queue == null ? visible : Set.of(queue);
    int offset = intParam(r, "offset", 0);
    DeadGroupPage page = redrive.deadGroups(new DeadGroupQuery(shown, GROUPS_PER_PAGE, offset));
    List<GroupCard> cards = new ArrayList<>();
    for (DeadGroup g : page.groups()) {
      boolean mayAct = r.may(Permission.ADMIN, g.queue());
      Set<String> sources = sourcesOf.getOrDefault(g.queue(), Set.of());
      cards.add(
          new GroupCard(
              g,
              g.pieces(),
              mayAct,
              sources.isEmpty() && mayAct ? sampleSource(g) : List.copyOf(sources)));
    }
    long totalDead = 0; // of the groups shown: counting every dead message would cost a scan
    for (DeadGroup g : page.groups()) {
      totalDead += g.count();
    }
    dashboard.page(
        r,
        "dead.jte",
        queue == null ? "Dead letters by cause" : "Dead letters of " + queue + " by cause",
        new GroupsView(queue, cards, offset, page.nextOffset(), totalDead));
  }

  /**
   * The queue a group's sample was moved from, for a queue no policy names as its dead-letter queue
   * (any more) that still holds moved copies. One read of the sample, made only when buttons are
   * shown; a redriven message keeps its own queue as its source, which is no source to go back to.
   */
  private List<String> sampleSource(DeadGroup g) {
    try {
      String source = redrive.getMessage(g.sampleId()).sourceQueue();
      return source == null || source.equals(g.queue()) ? List.of() : List.of(source);
    } catch (MessageNotFoundException e) {
      return List.of(); // retried, redriven or dropped since the groups were counted
    }
  }

  private static int intParam(UiRequest r, String name, int fallback) {
    String v = r.query(name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": must be a whole number ≥ 0, was \"" + v + "\"");
    }
  }

  private static String op(String value) {
    if (value == null || !OPS.contains(value)) {
      throw new IllegalArgumentException(
          "op: must be retry, redrive or drop, was "
              + (value == null ? "missing" : "\"" + value + "\""));
    }
    return value;
  }

  /** The confirmation page: counts what the action would touch (a dry run), changes nothing. */
  private void confirm(UiRequest r) {
    String op = op(r.query("op"));
    String id = r.query("id");
    ConfirmView view;
    if (id != null && !id.isBlank()) {
      Message m = visibleMessage(r, id);
      r.require(Permission.ADMIN, m.queue());
      long count = actionable(op, m) ? 1 : 0;
      view =
          new ConfirmView(
              op,
              m.queue(),
              null,
              m.id(),
              count,
              1 - count,
              "message " + m.id() + " (" + m.type() + ")",
              Dashboard.ROOT + "/messages/" + Fmt.seg(m.id()));
    } else {
      String queue = required(r.query("queue"), "queue");
      String fingerprint = Fingerprint.requireKey("fingerprint", r.query("fingerprint"));
      if (!r.principal().mayAccess(queue)) {
        throw new QueueNotFoundException(queue);
      }
      r.require(Permission.ADMIN, queue);
      DeadGroup group = findGroup(queue, fingerprint);
      long count = group.count();
      long skipped = 0;
      if (op.equals("redrive")) {
        RedriveResult dry =
            redrive.redrive(
                RedriveRequest.all(queue)
                    .withFingerprint(fingerprint)
                    .withLimit(RedriveRequest.MAX_LIMIT)
                    .withDryRun(true));
        count = dry.count();
        skipped = dry.skipped().size();
      }
      Fingerprint pieces = group.pieces();
      view =
          new ConfirmView(
              op,
              queue,
              fingerprint,
              null,
              count,
              skipped,
              describe(pieces),
              Dashboard.ROOT + "/queues/" + Fmt.seg(queue) + "/dead");
    }
    dashboard.page(r, "confirm.jte", view.verb() + "?", view);
  }

  private static boolean actionable(String op, Message m) {
    return switch (op) {
      case "retry" -> m.state() == MessageState.DEAD;
      case "redrive" -> m.state() == MessageState.DEAD && m.sourceQueue() != null;
      default -> m.state() != MessageState.LEASED;
    };
  }

  private static String describe(Fingerprint f) {
    StringBuilder b = new StringBuilder(Fmt.words(f.reason()));
    b.append(" · type ").append(f.type());
    if (f.exceptionClass() != null) {
      b.append(" · ").append(f.exceptionClass());
    }
    if (f.pattern() != null) {
      b.append(" · ").append(f.pattern());
    }
    return b.toString();
  }

  private DeadGroup findGroup(String queue, String fingerprint) {
    int offset = 0;
    while (true) {
      DeadGroupPage page =
          redrive.deadGroups(new DeadGroupQuery(Set.of(queue), DeadGroupQuery.MAX_LIMIT, offset));
      for (DeadGroup g : page.groups()) {
        if (g.fingerprint().equals(fingerprint)) {
          return g;
        }
      }
      if (page.nextOffset() == null) {
        throw new NotFoundException(
            "GROUP_NOT_FOUND",
            "queue \""
                + queue
                + "\" has no dead messages with fingerprint "
                + fingerprint
                + " (retried, redriven or dropped already?)");
      }
      offset = page.nextOffset();
    }
  }

  private Message visibleMessage(UiRequest r, String id) {
    Message m = redrive.getMessage(id);
    if (!r.principal().mayAccess(m.queue())) {
      throw new MessageNotFoundException(id);
    }
    return m;
  }

  private static String required(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + ": is required");
    }
    return value;
  }

  /** Does a confirmed action: authorizes it again, starts its job and shows the job's page. */
  private void act(UiRequest r) {
    String op = op(r.form("op"));
    String id = r.form("id");
    BulkJobs.Order order;
    if (id != null && !id.isBlank()) {
      Message m = visibleMessage(r, id);
      r.require(Permission.ADMIN, m.queue());
      order = new BulkJobs.Order(op, m.queue(), null, m.id(), 1, r.actor());
    } else {
      String queue = required(r.form("queue"), "queue");
      String fingerprint = Fingerprint.requireKey("fingerprint", r.form("fingerprint"));
      if (!r.principal().mayAccess(queue)) {
        throw new QueueNotFoundException(queue);
      }
      r.require(Permission.ADMIN, queue);
      long expected;
      try {
        expected = Long.parseLong(required(r.form("expected"), "expected"));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("expected: must be a whole number");
      }
      if (expected < 0 || expected > 10_000_000) {
        throw new IllegalArgumentException("expected: must be between 0 and 10000000");
      }
      order = new BulkJobs.Order(op, queue, fingerprint, null, expected, r.actor());
    }
    String jobId = jobs.start(order, 2_000);
    r.ctx().redirect(Dashboard.ROOT + "/jobs/" + jobId, HttpStatus.SEE_OTHER);
  }

  private void job(UiRequest r) {
    JobView job =
        jobs.find(r.path("id"))
            .orElseThrow(
                () ->
                    new NotFoundException(
                        "JOB_NOT_FOUND",
                        "no action "
                            + r.path("id")
                            + " on this server (actions are kept in the memory of the server that"
                            + " ran them, the last 200)"));
    if (!r.principal().mayAccess(job.queue())) {
      throw new NotFoundException("JOB_NOT_FOUND", "no action " + r.path("id") + " on this server");
    }
    dashboard.page(r, "job.jte", job.running() ? "Working…" : "Done", job);
  }
}

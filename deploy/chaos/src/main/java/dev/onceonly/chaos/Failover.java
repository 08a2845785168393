package dev.onceonly.chaos;

import dev.onceonly.chaos.FailoverFindings.AttemptRecord;
import dev.onceonly.chaos.FailoverFindings.Lease;
import dev.onceonly.chaos.FailoverFindings.NodeState;
import dev.onceonly.pipeline.SandboxStats;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Scenarios 13 and 14: PostgreSQL failing over. A primary and a streaming standby ({@link
 * PostgresPair}), the services on a multi-host JDBC URL that asks for the primary; mid-stream the
 * primary is killed with SIGKILL (its postmaster and every backend) and the standby promoted
 * ({@code pg_ctl promote}). The services must find the promoted node by themselves.
 *
 * <p>13, synchronous replication: nothing may be lost or doubled. 14, asynchronous: the switch
 * loses the commits the standby had not received; the scenario measures what that costs (claims of
 * acked messages gone, completions gone and their rows sent again, provider effects whose outbox
 * row is gone) and passes if it measured and the provider took no effect twice.
 *
 * <p>Both check the relay's fence across the switch explicitly: the standby's leases and attempt
 * records are read just before the promotion, and no completion of a call started before it may
 * write a row whose lease the promoted node never had ({@link FailoverFindings#fenceBreaches}).
 */
final class Failover implements StandaloneScenario {

  /**
   * How far the asynchronous standby is behind when the primary dies, at least: its WAL sender is
   * stopped this long before the kill. On one machine it is otherwise a fraction of a millisecond
   * behind and the measurement would only say that; over a network, and under load, it is more.
   */
  static final Duration LAG = Duration.ofSeconds(1);

  /**
   * The stall lasts until the primary has committed this many claims the standby has not received
   * (or {@link #LONGEST_STALL} has passed): the full run publishes in bursts seconds apart, and a
   * stall that fell between two bursts held nothing back and measured nothing.
   */
  static final int UNREPLICATED_CLAIMS = 10;

  /** The longest the WAL sender stays stopped waiting for {@link #UNREPLICATED_CLAIMS}. */
  static final Duration LONGEST_STALL = Duration.ofSeconds(30);

  /** Sandbox latency: calls are in flight, rows leased, when the primary dies. */
  private static final String LATENCY = "{\"latencyMs\": 300}";

  private static final String SQL_CLAIMS =
      "SELECT consumer || '/' || message_key FROM onceonly.processed_messages";
  private static final String SQL_LEASES =
      "SELECT id, lease_owner, attempts FROM outbox.outbox WHERE status = 'in_flight'";
  private static final String SQL_ATTEMPTS =
      "SELECT outbox_id, relay_id, attempt, started_at, outcome FROM outbox.outbox_attempts";
  private static final String SQL_DELIVERED =
      "SELECT id FROM outbox.outbox WHERE status = 'delivered'";

  /** The newest commit among the rows the services wrote (commit timestamps are tracked). */
  private static final String SQL_LAST_COMMIT =
      """
      SELECT max(t) FROM (
        SELECT pg_xact_commit_timestamp(xmin) AS t FROM onceonly.processed_messages
        UNION ALL SELECT pg_xact_commit_timestamp(xmin) FROM outbox.outbox
        UNION ALL SELECT pg_xact_commit_timestamp(xmin) FROM outbox.outbox_attempts) c
      """;

  /** Rows still to deliver on the promoted node. */
  private static final String SQL_WAITING =
      "SELECT 'waiting', count(*) FROM outbox.outbox WHERE status IN ('pending', 'in_flight')";

  /** The newest write of a service: a claim or an attempt. */
  private static final String SQL_LAST_WRITE =
      """
      SELECT greatest((SELECT max(processed_at) FROM onceonly.processed_messages),
                      (SELECT max(finished_at) FROM outbox.outbox_attempts))
      """;

  private final int number;
  private final String name;
  private final boolean synchronous;

  private Failover(int number, String name, boolean synchronous) {
    this.number = number;
    this.name = name;
    this.synchronous = synchronous;
  }

  static Failover synchronous() {
    return new Failover(13, "PostgreSQL failover to a synchronous standby", true);
  }

  static Failover asynchronous() {
    return new Failover(14, "PostgreSQL failover to an async standby (loss measured)", false);
  }

  @Override
  public int number() {
    return number;
  }

  @Override
  public String name() {
    return name;
  }

  /** What the switch did and when. */
  private record Switch(
      Duration stalled,
      int killed,
      Instant killedAt,
      Instant promotedAt,
      Duration toPromoted,
      Duration toWriting,
      NodeState atPromotion) {}

  @Override
  public Scenario.Result run(Stage stage) throws Exception {
    int base = stage.portBase();
    PostgresPair pair =
        stage.teardown().add(PostgresPair.start(base + 432, base + 442, synchronous));
    PrivateRabbit rabbit = stage.teardown().add(PrivateRabbit.start(base + 672));
    Fleet fleet =
        stage
            .teardown()
            .add(new Fleet(stage.root(), stage.runDir(), base, pair.jdbcUrl(), rabbit.nodes()));
    Lab.say(
        "PostgreSQL primary on %d, %s standby on %d; services on %s",
        base + 432, synchronous ? "synchronous" : "asynchronous", base + 442, pair.jdbcUrl());
    fleet.start();
    rabbit.requireDeadLetterPolicy(Lab.DEAD_LETTER_QUEUES);
    Lab lab = new Lab(null, pair.jdbcUrl(), rabbit, fleet, stage.mode(), stage.seed() ^ number);
    lab.providerFaults(LATENCY);

    AtomicBoolean switched = new AtomicBoolean();
    Quiet quiet = new Quiet(lab, rabbit);
    Traffic traffic =
        synchronous
            ? lab.traffic()
            : new Traffic(lab::sink, lab.db, () -> switched.get() && quiet.settled());
    Traffic.Spec spec =
        new Traffic.Spec(lab.mode.customers(), lab.mode.orders(), 0, lab.random.nextLong());
    ExecutorService faultThread = Executors.newSingleThreadExecutor();
    Traffic.Sent sent;
    Switch sw;
    try {
      Future<Switch> fault =
          faultThread.submit(
              () -> {
                Thread.sleep(lab.mode.window().toMillis() / 3);
                Switch done = failover(pair, lab);
                switched.set(true);
                return done;
              });
      sent =
          traffic.run(
              spec,
              lab.mode.window().multipliedBy(3).dividedBy(4),
              lab.mode.drain().plus(lab.mode.window()),
              () -> {});
      sw = fault.get(lab.mode.window().toSeconds() + 600, TimeUnit.SECONDS);
    } finally {
      faultThread.shutdownNow();
    }
    lab.providerFaults(null);
    long faultEnd = System.nanoTime();
    Scenario.Run settled =
        synchronous
            ? Scenario.settle(lab, sent, faultEnd)
            : Scenario.settle(lab, sent, faultEnd, () -> quiet.settled() && waiting(lab) == 0);
    Duration settledAfterKill = Duration.between(sw.killedAt(), Instant.now());

    List<String> problems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    NodeState now = read(lab.db.connect());
    pair.reopenOldPrimary(base + 452);
    NodeState old = read(PostgresPair.connect(base + 452, PrivatePostgres.DATABASE));

    notes.add(
        String.format(
            (synchronous
                    ? ""
                    : "WAL sender stopped "
                        + sw.stalled().toMillis()
                        + " ms before the kill (at least "
                        + LAG.toMillis()
                        + " ms, until the primary had committed "
                        + UNREPLICATED_CLAIMS
                        + " claims, at most "
                        + LONGEST_STALL.toSeconds()
                        + " s); ")
                + "primary killed (%d processes) %.1f s into the window; standby promoted %.1f s after"
                + " the kill; services writing on the promoted node %.1f s after the promotion;"
                + " %s %s after the kill",
            sw.killed(),
            (lab.mode.window().toMillis() / 3 + sw.stalled().toMillis()) / 1000.0,
            sw.toPromoted().toMillis() / 1000.0,
            sw.toWriting().toMillis() / 1000.0,
            settled.verdict().passed() ? "every invariant held" : "the stream settled",
            settled.recovery() == null
                ? "never (bound passed)"
                : String.format("%.1f s", settledAfterKill.toMillis() / 1000.0)));

    List<AttemptRecord> breaches =
        FailoverFindings.fenceBreaches(sw.atPromotion(), now, sw.promotedAt());
    Set<Lease> leasesLost = FailoverFindings.leasesLost(old, sw.atPromotion());
    notes.add(
        String.format(
            "fence: %d leases in flight at the switch, %d granted by the old primary never reached"
                + " the standby; %d completions of old leases turned away after the switch,"
                + " %d written through a lease the promoted node never had",
            sw.atPromotion().leases().size(),
            leasesLost.size(),
            FailoverFindings.fencedOff(sw.atPromotion(), now, sw.promotedAt()),
            breaches.size()));
    if (!breaches.isEmpty()) {
      problems.add(
          breaches.size()
              + " completions of leases taken on the old primary wrote rows on the new one"
              + " (fence broken), e.g. "
              + breaches.get(0));
    }

    Set<String> notReplicated = FailoverFindings.claimsNotReplicated(old, sw.atPromotion());
    Set<String> ackedLost = FailoverFindings.ackedAndLost(old, sw.atPromotion(), now);
    Set<Long> completionsLost = FailoverFindings.completionsLost(old, sw.atPromotion());
    Duration window = FailoverFindings.window(old, sw.atPromotion());
    long replays = 0;
    for (String api : List.of("receipts", "payouts")) {
      replays += SandboxStats.fetch(fleet.sandboxUrl, api).replays();
    }
    Observation o = settled.observation() != null ? settled.observation() : lab.observe();
    Set<String> orphans =
        FailoverFindings.orphanEffects(o.effectsPerKey(), o.outboxKeys().keySet());
    long doubledAtProvider =
        FailoverFindings.doubledAtProvider(o.effectsPerKey(), o.effectiveCalls());
    notes.add(
        String.format(
            "loss: the standby's newest commit was %s behind the old primary's; %d claims"
                + " committed on the old primary never reached it, %d of them acked and lost"
                + " (published orders never credited: %d); %d deliveries whose completion was lost,"
                + " %d calls the provider answered from its store (key already seen); %d provider"
                + " effects whose outbox row is gone; %d effects doubled at the provider",
            window == null ? "?" : window.toMillis() + " ms",
            notReplicated.size(),
            ackedLost.size(),
            uncredited(sent, o),
            completionsLost.size(),
            replays,
            orphans.size(),
            doubledAtProvider));
    notes.add("services on the promoted node: " + connections(lab));

    for (ServiceProcess s : fleet.all()) {
      if (!s.alive() || !s.ready()) {
        problems.add(s.name() + " did not survive the switch (not running or not ready)");
      }
    }
    for (int i = 1; i <= 2; i++) {
      String relay = "relay-" + i;
      boolean worked =
          now.attempts().stream()
              .anyMatch(
                  a -> a.lease().relay().equals(relay) && a.startedAt().isAfter(sw.promotedAt()));
      if (!worked) {
        problems.add(relay + " made no delivery on the promoted node");
      }
    }

    long lost;
    long doubled;
    boolean recovered;
    if (synchronous) {
      problems.addAll(settled.verdict().problems());
      if (!ackedLost.isEmpty()) {
        problems.add(ackedLost.size() + " acked claims lost with a synchronous standby");
      }
      lost = settled.verdict().lost();
      doubled = settled.verdict().doubled();
      recovered = settled.recovery() != null;
    } else {
      settled.verdict().problems().forEach(p -> notes.add("invariant (reported): " + p));
      if (doubledAtProvider > 0) {
        problems.add(doubledAtProvider + " effects doubled at the provider");
      }
      lost = settled.verdict().lost();
      doubled = doubledAtProvider;
      recovered = true;
    }
    return new Scenario.Result(
        number,
        name,
        sent.published(),
        1,
        lost,
        doubled,
        sw.toPromoted().plus(sw.toWriting()),
        problems.isEmpty() && recovered,
        problems,
        notes);
  }

  /**
   * Kills the primary, reads the standby once it has replayed all it received, promotes it, and
   * waits until a service writes on it.
   */
  private static Switch failover(PostgresPair pair, Lab lab) throws Exception {
    Duration stalled = Duration.ZERO;
    if (!pair.synchronous()) {
      long s0 = System.nanoTime();
      Instant stalledAt = lab.db.now();
      pair.stallWalSender();
      Thread.sleep(LAG.toMillis());
      long claims = awaitClaimsSince(lab, stalledAt, s0 + LONGEST_STALL.toNanos());
      stalled = Duration.ofNanos(System.nanoTime() - s0);
      Lab.say(
          "WAL sender stopped %d ms: the primary committed %d claims the standby has not received",
          stalled.toMillis(), claims);
    }
    Instant killedAt = Instant.now();
    long t0 = System.nanoTime();
    int killed = pair.killPrimary();
    Lab.say("primary killed (SIGKILL, %d processes)", killed);
    pair.awaitStandbyReplayed(Duration.ofSeconds(30));
    NodeState atPromotion = read(pair.connectStandby());
    Instant promotedAt = Instant.now();
    pair.promote();
    long t1 = System.nanoTime();
    Lab.say("standby promoted (%d ms after the kill)", (t1 - t0) / 1_000_000);
    long deadline = t1 + Duration.ofSeconds(120).toNanos();
    while (true) {
      try {
        Instant last = lab.db.instant(SQL_LAST_WRITE);
        if (last.isAfter(promotedAt)) {
          break;
        }
      } catch (SQLException e) {
        // the driver's view of which node is the primary may lag the promotion: ask again
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no service wrote on the promoted node within 120 s");
      }
      Thread.sleep(100);
    }
    long t2 = System.nanoTime();
    Lab.say(
        "services writing on the promoted node (%d ms after the promotion)", (t2 - t1) / 1_000_000);
    return new Switch(
        stalled,
        killed,
        killedAt,
        promotedAt,
        Duration.ofNanos(t1 - t0),
        Duration.ofNanos(t2 - t1),
        atPromotion);
  }

  /**
   * Waits until the primary has committed {@link #UNREPLICATED_CLAIMS} claims since {@code since}
   * (its own clock), or until {@code deadline} ({@link System#nanoTime()}); returns how many it
   * has.
   */
  private static long awaitClaimsSince(Lab lab, Instant since, long deadline) throws Exception {
    while (true) {
      long claims = lab.db.claimsSince(since);
      if (claims >= UNREPLICATED_CLAIMS || System.nanoTime() > deadline) {
        return claims;
      }
      Thread.sleep(100);
    }
  }

  /**
   * Reads a node's claims, leases, attempts, delivered rows and newest commit; closes {@code c}.
   */
  static NodeState read(Connection c) throws SQLException {
    try (c;
        Statement s = c.createStatement()) {
      Set<String> claims = new HashSet<>();
      try (ResultSet rs = s.executeQuery(SQL_CLAIMS)) {
        while (rs.next()) {
          claims.add(rs.getString(1));
        }
      }
      Set<Lease> leases = new HashSet<>();
      try (ResultSet rs = s.executeQuery(SQL_LEASES)) {
        while (rs.next()) {
          leases.add(new Lease(rs.getLong(1), rs.getString(2), rs.getInt(3)));
        }
      }
      List<AttemptRecord> attempts = new ArrayList<>();
      try (ResultSet rs = s.executeQuery(SQL_ATTEMPTS)) {
        while (rs.next()) {
          attempts.add(
              new AttemptRecord(
                  new Lease(rs.getLong(1), rs.getString(2), rs.getInt(3)),
                  rs.getTimestamp(4).toInstant(),
                  rs.getString(5)));
        }
      }
      Set<Long> delivered = new HashSet<>();
      try (ResultSet rs = s.executeQuery(SQL_DELIVERED)) {
        while (rs.next()) {
          delivered.add(rs.getLong(1));
        }
      }
      Instant lastCommit;
      try (ResultSet rs = s.executeQuery(SQL_LAST_COMMIT)) {
        rs.next();
        Timestamp t = rs.getTimestamp(1);
        lastCommit = t == null ? null : t.toInstant();
      }
      return new NodeState(claims, leases, attempts, delivered, lastCommit);
    }
  }

  private static long uncredited(Traffic.Sent sent, Observation o) {
    return sent.summary().orderIds().stream()
        .filter(id -> !o.creditsPerOrder().containsKey(id))
        .count();
  }

  /** Client connections on the promoted node, per application name. */
  private static String connections(Lab lab) throws SQLException {
    Map<String, Long> byApp =
        lab.db.counts(
            "SELECT coalesce(nullif(application_name, ''), '?'), count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1");
    return new java.util.TreeMap<>(byApp).toString();
  }

  /**
   * Rows still to deliver: after an asynchronous failover some orders are never credited, so the
   * invariants never hold, and the stream has settled once the pipeline is quiet and this is 0.
   */
  private static long waiting(Lab lab) {
    try {
      return lab.db.counts(SQL_WAITING).getOrDefault("waiting", 0L);
    } catch (SQLException e) {
      return -1;
    }
  }

  /**
   * Whether the pipeline has gone quiet: the figures unchanged for five seconds and the three order
   * and profile queues empty (nothing ready, nothing unacked).
   */
  private static final class Quiet {
    private final Lab lab;
    private final PrivateRabbit rabbit;
    private Map<String, Long> lastFigures = Map.of();
    private long stableSince = System.nanoTime();

    Quiet(Lab lab, PrivateRabbit rabbit) {
      this.lab = lab;
      this.rabbit = rabbit;
    }

    synchronized boolean settled() {
      try {
        Map<String, Long> figures = lab.db.figures();
        long now = System.nanoTime();
        if (!figures.equals(lastFigures)) {
          lastFigures = figures;
          stableSince = now;
          return false;
        }
        if (now - stableSince < Duration.ofSeconds(5).toNanos()) {
          return false;
        }
        return queuesEmpty();
      } catch (Exception e) {
        return false;
      }
    }

    private boolean queuesEmpty() throws Exception {
      String listing = rabbit.ctl("-q", "list_queues", "name", "messages");
      for (String line : listing.split("\n")) {
        String[] columns = line.strip().split("\\s+");
        if (columns.length == 2
            && Lab.QUEUES.contains(columns[0])
            && !columns[0].endsWith(".dlq")
            && !"0".equals(columns[1])) {
          return false;
        }
      }
      return true;
    }
  }
}

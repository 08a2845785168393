package dev.onceonly.relay.metrics;

import dev.onceonly.relay.metrics.DatabaseStatsRepository.TableStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Growth gauges of OnceOnly's tables, refreshed on a schedule (a scrape never queries the
 * database): {@code onceonly_db_table_bytes}, {@code onceonly_db_index_bytes}, {@code
 * onceonly_db_dead_tuples} and {@code onceonly_db_partitions} per table, {@code
 * onceonly_db_oldest_partition_age_days} and {@code onceonly_db_newest_partition_ahead_days} per
 * partitioned table, and {@code onceonly_db_oldest_transaction_age_seconds}: a transaction left
 * open holds back VACUUM for every table, and the outbox, a queue table, bloats first. The relay
 * reports every table of both schemas (every relay the same figures: aggregate with {@code max}).
 */
@ApplicationScoped
public class DatabaseGauges {

  /** The tables watched, schema-qualified; a table not created yet is left out. */
  static final List<String> TABLES =
      List.of(
          "outbox.outbox",
          "outbox.outbox_attempts",
          "outbox.outbox_keys",
          "onceonly.processed_messages",
          "loyalty.point_ledger",
          "onceonly.message_conflicts",
          "onceonly.rejections");

  private static final Logger LOG = Logger.getLogger(DatabaseGauges.class);

  private final DatabaseStatsRepository repository;
  private final MeterRegistry registry;
  private final AtomicLong oldestTransaction = new AtomicLong();
  private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();

  public DatabaseGauges(DatabaseStatsRepository repository, MeterRegistry registry) {
    this.repository = repository;
    this.registry = registry;
    Gauge.builder("onceonly.db.oldest.transaction.age.seconds", oldestTransaction, AtomicLong::get)
        .description("Age of the oldest open transaction of the database (it holds back VACUUM)")
        .register(registry);
  }

  @Scheduled(
      every = "${relay.stats-refresh:15s}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void refresh() {
    try {
      oldestTransaction.set(repository.oldestTransactionAgeSeconds());
      for (TableStats t : repository.tables(TABLES)) {
        set(
            "onceonly.db.table.bytes",
            "Table size on disk (heap and TOAST)",
            t.table(),
            t.tableBytes());
        set("onceonly.db.index.bytes", "Size of the table's indexes", t.table(), t.indexBytes());
        set(
            "onceonly.db.dead.tuples",
            "Dead tuples VACUUM has yet to remove",
            t.table(),
            t.deadTuples());
        set(
            "onceonly.db.partitions",
            "Partitions of the table (1 if not partitioned)",
            t.table(),
            t.partitions());
        if (t.oldestPartitionAgeDays().isPresent()) {
          set(
              "onceonly.db.oldest.partition.age.days",
              "Days since the lower bound of the table's oldest partition",
              t.table(),
              t.oldestPartitionAgeDays().getAsLong());
        }
        if (t.newestPartitionAheadDays().isPresent()) {
          set(
              "onceonly.db.newest.partition.ahead.days",
              "Days from today to the last day the table's partitions cover (below 1: none ready)",
              t.table(),
              t.newestPartitionAheadDays().getAsLong());
        }
      }
    } catch (RuntimeException e) {
      LOG.debugf(e, "database gauges not refreshed");
    }
  }

  private void set(String name, String description, String table, long value) {
    values
        .computeIfAbsent(
            name + '|' + table,
            k -> {
              AtomicLong holder = new AtomicLong();
              Gauge.builder(name, holder, AtomicLong::get)
                  .description(description)
                  .tag("table", table)
                  .register(registry);
              return holder;
            })
        .set(value);
  }
}

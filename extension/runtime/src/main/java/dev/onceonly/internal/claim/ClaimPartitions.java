package dev.onceonly.internal.claim;

import dev.onceonly.internal.claim.ClaimPartitionRepository.Partition;
import dev.onceonly.internal.config.OnceOnlyConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Claim retention by partition: keeps a daily partition ready for every day of the claim window and
 * {@code partitions-ahead} days beyond today, and drops the partitions of days older than the
 * window (with one day of margin for clocks). A dropped day costs a catalog change, not a million
 * deletes and the bloat they leave. Runs at start and then every {@code retention-interval};
 * replicas take turns through an advisory lock; a run that cannot get its locks quickly gives up
 * and the next one goes on.
 */
@Singleton
public class ClaimPartitions {

  private static final Logger LOG = Logger.getLogger(ClaimPartitions.class);

  private final ClaimPartitionRepository repository;
  private final long windowDays;
  private final int ahead;

  /** What one run did. */
  public record Run(List<LocalDate> created, List<LocalDate> dropped) {}

  public ClaimPartitions(ClaimPartitionRepository repository, OnceOnlyConfig config) {
    this.repository = repository;
    this.windowDays = config.claims().retention().toDays();
    this.ahead = Math.max(1, config.claims().partitionsAhead());
  }

  /** The days that must have a partition as of {@code today}: the window and the days ahead. */
  public static List<LocalDate> needed(LocalDate today, long windowDays, int ahead) {
    return today.minusDays(windowDays).datesUntil(today.plusDays(ahead + 1L)).toList();
  }

  /** Whether a partition for {@code day} may go: older than the window, and a day of margin. */
  public static boolean expired(LocalDate day, LocalDate today, long windowDays) {
    return day.isBefore(today.minusDays(windowDays + 1));
  }

  void onStart(@Observes StartupEvent event) {
    scheduled();
  }

  @Scheduled(
      identity = "claim-partitions",
      every = "${quarkus.onceonly.claims.retention-interval:1h}",
      delayed = "${quarkus.onceonly.claims.retention-delay:1m}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void scheduled() {
    try {
      run(Instant.now());
    } catch (SQLException | RuntimeException e) {
      LOG.warnf(e, "claim partition maintenance failed; the next run tries again");
    }
  }

  /** Creates the partitions missing as of {@code now} and drops the expired ones. */
  public Run run(Instant now) throws SQLException {
    LocalDate today = now.atOffset(ZoneOffset.UTC).toLocalDate();
    return repository
        .maintain(
            session -> {
              List<Partition> existing = session.partitions();
              Set<LocalDate> present =
                  existing.stream().map(Partition::day).collect(Collectors.toSet());
              List<LocalDate> created =
                  needed(today, windowDays, ahead).stream()
                      .filter(day -> !present.contains(day))
                      .toList();
              for (LocalDate day : created) {
                session.create(day);
              }
              List<Partition> expired =
                  existing.stream().filter(p -> expired(p.day(), today, windowDays)).toList();
              for (Partition partition : expired) {
                session.drop(partition);
              }
              List<LocalDate> dropped = expired.stream().map(Partition::day).toList();
              if (!created.isEmpty() || !dropped.isEmpty()) {
                LOG.infof(
                    "claim partitions: created %d (%s), dropped %d beyond the %d-day window (%s)",
                    created.size(), created, dropped.size(), windowDays, dropped);
              }
              return new Run(created, dropped);
            })
        .orElseGet(
            () -> {
              LOG.debug("claim partitions are being maintained by another replica");
              return new Run(List.of(), List.of());
            });
  }
}

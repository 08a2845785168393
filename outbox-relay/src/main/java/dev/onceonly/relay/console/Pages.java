package dev.onceonly.relay.console;

import dev.onceonly.relay.api.AttemptView;
import dev.onceonly.relay.api.AuditEntryView;
import dev.onceonly.relay.api.RowView;
import dev.onceonly.relay.api.StatsView.ParkedKeyView;
import java.util.List;

/** What each console page shows; the templates read nothing else. */
public final class Pages {

  private Pages() {}

  /** Who is looking (every page says it) and what they last searched for. */
  public record Header(String user, boolean admin, String query) {}

  /** Rows of one destination per status, in the order of {@link Overview#statuses()}. */
  public record KindCounts(String kind, List<Long> counts) {}

  /**
   * One destination on the overview: its figures, its breaker, and its last hour as a chart.
   *
   * @param link the overview filtered to it
   */
  public record DestinationRow(
      String name,
      String link,
      boolean configured,
      String target,
      long backlog,
      String oldestWaiting,
      long deliveredLastMinute,
      long failedLastMinute,
      String breaker,
      Chart chart) {}

  /**
   * Deliveries and failures per minute as SVG polyline points (oldest minute on the left), with the
   * scale's top ({@code max} a minute) and the hour's totals, said in words in {@code label}.
   */
  public record Chart(
      String deliveredPoints,
      String failedPoints,
      long max,
      long deliveredTotal,
      long failedTotal,
      String label) {}

  /**
   * {@code /console}: the outbox at a glance.
   *
   * @param destination the destination the dead rows are filtered to, or null for all
   */
  public record Overview(
      Header header,
      List<String> statuses,
      List<Long> totals,
      List<KindCounts> kinds,
      List<DestinationRow> destinations,
      String oldestPendingAge,
      long deliveriesLastMinute,
      List<ParkedKeyView> parked,
      long parkedTotal,
      String destination,
      List<RowView> dead,
      List<String> knownKinds,
      int replayMaxRows) {}

  /** {@code /console/rows/{id}}: one row's whole story. */
  public record RowPage(
      Header header,
      RowView row,
      String payload,
      List<AttemptView> attempts,
      boolean retryable,
      boolean cancellable,
      boolean settling) {}

  /** {@code /console/search}: the rows a search names. */
  public record SearchPage(Header header, List<RowView> rows, int limit) {}

  /** {@code /console/audit}: every change made through the API or the console. */
  public record AuditPage(Header header, List<AuditEntryView> entries, Long nextCursor) {}
}

package dev.onceonly.relay.console;

import dev.onceonly.relay.api.StatsView;
import dev.onceonly.relay.api.StatsView.DestinationView;
import dev.onceonly.relay.console.Pages.Chart;
import dev.onceonly.relay.console.Pages.DestinationRow;
import dev.onceonly.relay.operations.Activity;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The overview's destinations: each one's figures from the stats, and its deliveries and failures
 * per minute over the last hour drawn as two lines (inline SVG from the recorded attempts, so an
 * outage and its recovery show as a shape).
 */
@ApplicationScoped
public class DestinationRows {

  static final int MINUTES = 60;
  static final int WIDTH = 240;
  static final int HEIGHT = 48;

  private final OutboxQueryRepository queries;

  public DestinationRows(OutboxQueryRepository queries) {
    this.queries = queries;
  }

  /** Every destination the stats know or that had attempts in the last hour, by name. */
  public List<DestinationRow> rows(StatsView stats) {
    Map<String, Activity> activity = queries.activity(MINUTES);
    Set<String> names = new TreeSet<>(stats.byDestination().keySet());
    names.addAll(activity.keySet());
    List<DestinationRow> rows = new ArrayList<>();
    for (String name : names) {
      DestinationView view = stats.byDestination().get(name);
      Activity hour =
          activity.getOrDefault(name, new Activity(new long[MINUTES], new long[MINUTES]));
      rows.add(
          new DestinationRow(
              name,
              "/console?destination=" + URLEncoder.encode(name, StandardCharsets.UTF_8),
              view != null && view.configured(),
              view == null ? null : view.target(),
              view == null ? 0 : view.backlog(),
              Durations.age(view == null ? 0 : view.oldestWaitingAgeSeconds()),
              view == null ? 0 : view.deliveriesLastMinute(),
              view == null ? 0 : view.failuresLastMinute(),
              view == null ? "unknown" : view.breaker(),
              chart(hour)));
    }
    return rows;
  }

  static Chart chart(Activity hour) {
    long max = 1;
    for (int i = 0; i < hour.delivered().length; i++) {
      max = Math.max(max, Math.max(hour.delivered()[i], hour.failed()[i]));
    }
    long delivered = hour.deliveredTotal();
    long failed = hour.failedTotal();
    return new Chart(
        points(hour.delivered(), max),
        points(hour.failed(), max),
        max,
        delivered,
        failed,
        delivered
            + " delivered and "
            + failed
            + " failed in the last hour, at most "
            + max
            + " a minute");
  }

  /** The polyline's points: one per minute, oldest on the left, {@code max} at the top. */
  static String points(long[] perMinute, long max) {
    StringBuilder points = new StringBuilder();
    int last = perMinute.length - 1;
    for (int i = 0; i < perMinute.length; i++) {
      double x = last == 0 ? 0 : (double) i * WIDTH / last;
      double y = (HEIGHT - 2) - (double) perMinute[i] / max * (HEIGHT - 4);
      if (i > 0) {
        points.append(' ');
      }
      points.append(String.format(Locale.ROOT, "%.1f,%.1f", x, y));
    }
    return points.toString();
  }
}

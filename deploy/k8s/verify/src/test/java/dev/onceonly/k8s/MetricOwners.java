package dev.onceonly.k8s;

import dev.onceonly.k8s.PromQl.Use;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which service must export each metric the rules and the dashboard query. A selector with a
 * literal job ({@code job="outbox-relay"}, {@code job=~"consumer-service|outbox-relay"}) says it;
 * otherwise OnceOnly's own metrics belong to the service their name's prefix says ({@link
 * #PREFIXES}, itself checked against what each service exports), and every other metric (JVM,
 * process, HTTP server: the Quarkus runtime's) to every service, as the dashboard's {@code $job}
 * selects both. A metric exported by the wrong service only is a problem: its panel or alert would
 * stay empty, since the ServiceMonitors scrape each service under its own job.
 */
final class MetricOwners {

  static final String CONSUMER = "consumer-service";
  static final String RELAY = "outbox-relay";
  static final Set<String> SERVICES = Set.of(CONSUMER, RELAY);

  /** OnceOnly's metric name prefixes and the service that exports them. */
  static final Map<String, String> PREFIXES = prefixes();

  private static final String OURS = "onceonly_";

  /** Series Prometheus makes itself for every scrape target: no service exports them. */
  private static final Set<String> PROMETHEUS = Set.of("up");

  /**
   * The Kafka client's, exported by a service whose consumers read from Kafka (docs/kafka.md); the
   * services checked here read from RabbitMQ.
   */
  private static final Set<String> KAFKA_CLIENT =
      Set.of("kafka_consumer_fetch_manager_records_lag");

  private static final Pattern JOB_MATCHER =
      Pattern.compile("(?:^|[{,])\\s*job\\s*(=~|=)\\s*\"([^\"]*)\"");

  private MetricOwners() {}

  private static Map<String, String> prefixes() {
    Map<String, String> prefixes = new LinkedHashMap<>();
    prefixes.put("onceonly_consumer_", CONSUMER);
    prefixes.put("onceonly_relay_", RELAY);
    // The data gauges (table sizes, dead tuples, partitions, oldest transaction): only the relay
    // computes them (deploy/k8s/README.md, "Alerts").
    prefixes.put("onceonly_db_", RELAY);
    return prefixes;
  }

  /** The services that must export {@code metric} as {@code expr} uses it. */
  static Set<String> exporters(String metric, String expr) {
    Set<String> jobs = literalJobs(metric, expr);
    if (!jobs.isEmpty()) {
      return jobs;
    }
    if (metric.startsWith(OURS)) {
      return PREFIXES.entrySet().stream()
          .filter(p -> metric.startsWith(p.getKey()))
          .map(Map.Entry::getValue)
          .findFirst()
          .map(Set::of)
          .orElse(Set.of());
    }
    return new TreeSet<>(SERVICES);
  }

  /**
   * The jobs the selectors of {@code metric} in {@code expr} name literally (a dashboard variable
   * such as {@code $job} names none).
   */
  static Set<String> literalJobs(String metric, String expr) {
    Set<String> jobs = new TreeSet<>();
    Matcher selector =
        Pattern.compile("(?<![\\w:])" + Pattern.quote(metric) + "\\s*\\{([^}]*)}").matcher(expr);
    while (selector.find()) {
      Matcher job = JOB_MATCHER.matcher(selector.group(1));
      while (job.find()) {
        String value = job.group(2);
        if (value.contains("$")) {
          continue;
        }
        if (job.group(1).equals("=")) {
          jobs.add(value);
        } else if (value.matches("[\\w-]+(\\|[\\w-]+)*")) {
          jobs.addAll(List.of(value.split("\\|")));
        }
      }
    }
    return jobs;
  }

  /** Problems of the real rules file and dashboard against what each service exports. */
  static List<String> problems(Map<String, Set<String>> exported) {
    return problems(PromQl.uses(), exported);
  }

  /**
   * Each metric of {@code uses} not exported by a service that must export it, and each OnceOnly
   * metric a service exports that {@link #PREFIXES} gives to another service (or to none).
   */
  static List<String> problems(List<Use> uses, Map<String, Set<String>> exported) {
    List<String> problems = new ArrayList<>();
    for (Use use : uses) {
      for (String metric : PromQl.metricNames(use.expr())) {
        if (PROMETHEUS.contains(metric) || KAFKA_CLIENT.contains(metric)) {
          continue;
        }
        Set<String> owners = exporters(metric, use.expr());
        if (owners.isEmpty()) {
          problems.add(
              metric
                  + " ("
                  + use.where()
                  + ") has no owner: give its prefix a service in MetricOwners.PREFIXES");
        }
        for (String owner : owners) {
          if (!exported.getOrDefault(owner, Set.of()).contains(metric)) {
            List<String> by = new ArrayList<>();
            exported.forEach(
                (service, names) -> {
                  if (names.contains(metric)) {
                    by.add(service);
                  }
                });
            problems.add(
                metric
                    + " ("
                    + use.where()
                    + ") is not exported by "
                    + owner
                    + (by.isEmpty() ? " nor by any service" : " but by " + by));
          }
        }
      }
    }
    for (Map.Entry<String, Set<String>> service : new java.util.TreeMap<>(exported).entrySet()) {
      for (String metric : service.getValue()) {
        if (metric.startsWith(OURS)) {
          Set<String> owners = exporters(metric, "");
          if (!owners.contains(service.getKey())) {
            problems.add(
                service.getKey()
                    + " exports "
                    + metric
                    + ", which MetricOwners.PREFIXES gives to "
                    + (owners.isEmpty() ? "no service" : owners));
          }
        }
      }
    }
    PREFIXES.forEach(
        (prefix, owner) -> {
          if (exported.getOrDefault(owner, Set.of()).stream()
              .noneMatch(m -> m.startsWith(prefix))) {
            problems.add(
                owner + " exports no " + prefix + "* metric: MetricOwners.PREFIXES is stale");
          }
        });
    return problems;
  }
}

package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names the alerting rules and the dashboard query. */
final class PromQl {

  private static final Set<String> KEYWORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "and",
          "or",
          "unless",
          "offset",
          "inf",
          "nan");
  private static final Pattern NAME_REGEX = Pattern.compile("__name__\\s*=~?\\s*\"([^\"]*)\"");
  private static final Pattern TOKEN = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*\\w+\\)");

  private PromQl() {}

  /** Metric names in one PromQL expression (Grafana variables allowed). */
  static Set<String> metricNames(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher byName = NAME_REGEX.matcher(expr);
    while (byName.find()) {
      names.addAll(List.of(byName.group(1).split("\\|")));
    }
    String text =
        expr.replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\$\\{?\\w+}?", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
            .replaceAll("\\boffset\\s+\\S+", " ")
            .replaceAll("\"[^\"]*\"", " ")
            // numbers, scientific notation included (5e9 is no metric "e9")
            .replaceAll("(?<![\\w:])[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?", " ");
    Matcher token = TOKEN.matcher(text);
    while (token.find()) {
      String name = token.group();
      boolean function = text.substring(token.end()).matches("(?s)\\s*\\(.*");
      if (!function && !KEYWORDS.contains(name) && !name.matches("\\d.*")) {
        names.add(name);
      }
    }
    return names;
  }

  /** One PromQL expression of the rules or the dashboard, and where it is. */
  record Use(String where, String expr) {}

  /**
   * Every expression of the rules file (by rule) and of the dashboard (by panel, and the metric
   * selector of each {@code label_values} variable).
   */
  static List<Use> uses() {
    List<Use> uses = new ArrayList<>();
    for (JsonNode group : rules().path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        String name =
            rule.has("alert") ? rule.path("alert").asText() : rule.path("record").asText();
        uses.add(new Use("rule " + name, rule.path("expr").asText()));
      }
    }
    JsonNode dashboard = dashboard();
    panelUses(dashboard.path("panels"), uses);
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      Matcher labelValues = LABEL_VALUES.matcher(variable.path("query").asText());
      if (labelValues.matches()) {
        uses.add(
            new Use("dashboard variable " + variable.path("name").asText(), labelValues.group(1)));
      }
    }
    return uses;
  }

  private static void panelUses(JsonNode panels, List<Use> uses) {
    for (JsonNode panel : panels) {
      for (JsonNode target : panel.path("targets")) {
        if (target.has("expr")) {
          uses.add(
              new Use(
                  "dashboard panel \"" + panel.path("title").asText() + "\"",
                  target.path("expr").asText()));
        }
      }
      panelUses(panel.path("panels"), uses);
    }
  }

  /** Metric names the rules file's expressions use. */
  static Set<String> ofRules() {
    Set<String> names = new TreeSet<>();
    for (JsonNode group : rules().path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        names.addAll(metricNames(rule.path("expr").asText()));
      }
    }
    return names;
  }

  /** Metric names the dashboard's panels and variables use. */
  static Set<String> ofDashboard() {
    JsonNode dashboard = dashboard();
    Set<String> names = new TreeSet<>();
    for (String expr : dashboard.findValuesAsText("expr")) {
      names.addAll(metricNames(expr));
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      String query = variable.path("query").asText();
      Matcher labelValues = LABEL_VALUES.matcher(query);
      if (labelValues.matches()) {
        names.addAll(metricNames(labelValues.group(1)));
      }
    }
    return names;
  }

  static JsonNode rules() {
    try {
      return Rendered.YAML.readTree(Repo.read("deploy/prometheus/onceonly-rules.yml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode dashboard() {
    try {
      return new ObjectMapper().readTree(Repo.read("deploy/grafana/onceonly-dashboard.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every alert name in the rules file. */
  static List<String> alerts() {
    List<String> alerts = new ArrayList<>();
    for (JsonNode group : rules().path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        if (rule.has("alert")) {
          alerts.add(rule.path("alert").asText());
        }
      }
    }
    return alerts;
  }
}

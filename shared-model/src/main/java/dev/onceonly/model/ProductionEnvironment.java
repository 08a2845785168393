package dev.onceonly.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The production configuration contract (ARCHITECTURE.md §8): in production a service reads its
 * settings from environment variables, and a {@code %prod} setting whose value is a variable
 * without a default must be given. The requirements are read from the service's own {@code
 * application.properties}, so the service (which refuses to start without them, naming them) and
 * its deployment ({@code deploy/k8s}, whose tests check that every one is provided) cannot drift.
 */
public final class ProductionEnvironment {

  private static final String PROD_PREFIX = "%prod.";

  /** The class loader of Quarkus' fast-jar runner: what a packaged service runs in. */
  static final String PACKAGED_LOADER = "io.quarkus.bootstrap.runner.RunnerClassLoader";

  private ProductionEnvironment() {}

  /**
   * One setting production must be given: the property {@code key} and the variables that can give
   * it, in the order the expression tries them (any one of them is enough).
   */
  public record Requirement(String key, List<String> variables) {

    public Requirement {
      variables = List.copyOf(variables);
    }

    /** {@code RECEIPTS_URL (or PROVIDER_URL) for relay.destinations."send_receipt".http.url}. */
    public String describe() {
      String first = variables.get(0);
      String others =
          variables.size() == 1
              ? ""
              : " (or " + String.join(" or ", variables.subList(1, variables.size())) + ")";
      return first + others + " for " + key;
    }

    boolean satisfiedBy(UnaryOperator<String> environment, UnaryOperator<String> properties) {
      if (present(properties.apply(key)) || present(environment.apply(environmentName(key)))) {
        return true;
      }
      return variables.stream()
          .anyMatch(v -> present(environment.apply(v)) || present(properties.apply(v)));
    }
  }

  /**
   * For a service's {@code main}, before Quarkus starts: in a packaged run ({@code
   * quarkus-run.jar}, whose classes a {@value #PACKAGED_LOADER} loads) with the {@code prod}
   * profile, prints {@link #refusal} and exits with status 1 when a requirement of the service's
   * properties is missing. Dev mode and tests load classes otherwise and are not checked: they have
   * defaults.
   */
  public static void exitIfIncomplete(String service, Class<?> main) {
    ClassLoader loader = main.getClassLoader();
    if (!PACKAGED_LOADER.equals(loader.getClass().getName())
        || !prodProfileActive(System::getenv, System::getProperty)) {
      return;
    }
    List<Requirement> missing =
        missing(requirementsOfClasspath(loader), System::getenv, System::getProperty);
    if (!missing.isEmpty()) {
      System.err.println(refusal(service, missing));
      System.exit(1);
    }
  }

  /** The requirements of the {@code application.properties} found on the class path. */
  public static List<Requirement> requirementsOfClasspath(ClassLoader loader) {
    try (InputStream in = loader.getResourceAsStream("application.properties")) {
      if (in == null) {
        return List.of();
      }
      Properties properties = new Properties();
      properties.load(in);
      return requirements(properties);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read application.properties", e);
    }
  }

  /** Every {@code %prod} key whose value needs a variable that has no default, sorted by key. */
  public static List<Requirement> requirements(Properties properties) {
    Map<String, String> prod = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(PROD_PREFIX)) {
        prod.put(name.substring(PROD_PREFIX.length()), properties.getProperty(name));
      }
    }
    List<Requirement> requirements = new ArrayList<>();
    prod.forEach(
        (key, value) ->
            needed(value).forEach(variables -> requirements.add(new Requirement(key, variables))));
    return requirements;
  }

  /** The requirements that neither the environment nor the system properties satisfy. */
  public static List<Requirement> missing(
      List<Requirement> requirements,
      UnaryOperator<String> environment,
      UnaryOperator<String> systemProperties) {
    return requirements.stream()
        .filter(r -> !r.satisfiedBy(environment, systemProperties))
        .collect(Collectors.toList());
  }

  /** The message a service stops with when {@code missing} is not empty. */
  public static String refusal(String service, List<Requirement> missing) {
    return service
        + " cannot start: required settings are missing from the environment: "
        + missing.stream().map(Requirement::describe).collect(Collectors.joining(", "))
        + ". Set them as environment variables (on Kubernetes the ConfigMaps and the Secret"
        + " described in deploy/k8s/README.md give them).";
  }

  /**
   * Whether the {@code prod} profile is active: it is unless {@code quarkus.profile} (or {@code
   * QUARKUS_PROFILE}) names other profiles only.
   */
  public static boolean prodProfileActive(
      UnaryOperator<String> environment, UnaryOperator<String> systemProperties) {
    String profiles = systemProperties.apply("quarkus.profile");
    if (!present(profiles)) {
      profiles = environment.apply("QUARKUS_PROFILE");
    }
    if (!present(profiles)) {
      return true;
    }
    for (String profile : profiles.split(",")) {
      if (profile.strip().equals("prod")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The variables a value needs: one list of alternatives per expression that has no usable
   * default. {@code ${A}} needs A; {@code ${A:${B}}} needs A or B; {@code ${A:x}} and {@code ${A:}}
   * need nothing. Names with a dot refer to other properties and are checked where those are set.
   */
  static List<List<String>> needed(String value) {
    List<List<String>> needs = new ArrayList<>();
    int from = 0;
    while (true) {
      int start = value.indexOf("${", from);
      if (start < 0) {
        return needs;
      }
      int end = closing(value, start + 2);
      if (end < 0) {
        return needs;
      }
      needs.addAll(neededByExpression(value.substring(start + 2, end)));
      from = end + 1;
    }
  }

  private static List<List<String>> neededByExpression(String body) {
    int colon = topLevelColon(body);
    String name = colon < 0 ? body : body.substring(0, colon);
    if (name.contains(".")) {
      return List.of();
    }
    if (colon < 0) {
      return List.of(List.of(name));
    }
    List<List<String>> needs = new ArrayList<>();
    for (List<String> fallback : needed(body.substring(colon + 1))) {
      List<String> alternatives = new ArrayList<>();
      alternatives.add(name);
      alternatives.addAll(fallback);
      needs.add(alternatives);
    }
    return needs;
  }

  private static int closing(String text, int from) {
    int depth = 0;
    for (int i = from; i < text.length(); i++) {
      if (text.startsWith("${", i)) {
        depth++;
        i++;
      } else if (text.charAt(i) == '}') {
        if (depth == 0) {
          return i;
        }
        depth--;
      }
    }
    return -1;
  }

  private static int topLevelColon(String body) {
    int depth = 0;
    for (int i = 0; i < body.length(); i++) {
      if (body.startsWith("${", i)) {
        depth++;
        i++;
      } else if (body.charAt(i) == '}') {
        depth--;
      } else if (body.charAt(i) == ':' && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** The environment variable SmallRye Config maps to a property: {@code a.b-c} → {@code A_B_C}. */
  static String environmentName(String key) {
    StringBuilder name = new StringBuilder(key.length());
    for (char c : key.toCharArray()) {
      name.append(Character.isLetterOrDigit(c) ? c : '_');
    }
    return name.toString().toUpperCase(Locale.ROOT);
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}

package dev.onceonly.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shape of the completion path (ARCHITECTURE.md §1, §5): the retry policy's verdict becomes a
 * completion in {@code completion/} and nowhere else, and the storage below it knows neither the
 * retry policy nor the destination's answer, only the values a completion writes. Read from the
 * sources' imports and qualified names (src/main/java of this module), so a dependency that creeps
 * in fails here first.
 */
class ArchitectureTest {

  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final String BASE = "dev.onceonly.relay.";

  /** The SQL the completion path runs: leasing and the fenced completion writes. */
  private static final List<String> STORAGE =
      List.of("completion.CompletionRepository", "lease.OutboxRepository");

  private static final String DECISION = BASE + "retry.Decision";

  /** Every main class of the relay (e.g. {@code completion.Completions}) and its source text. */
  private static Map<String, String> sources;

  @BeforeAll
  static void readSources() throws IOException {
    sources = new TreeMap<>();
    Path root = SOURCES.resolve(BASE.replace('.', '/'));
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .forEach(
              f -> {
                String name = root.relativize(f).toString().replace('/', '.');
                sources.put(name.substring(0, name.length() - ".java".length()), read(f));
              });
    }
    assertThat(sources).as("relay sources under " + root.toAbsolutePath()).hasSizeGreaterThan(50);
    assertThat(sources).containsKeys(STORAGE.toArray(String[]::new));
    assertThat(sources).containsKeys("retry.Decision", "destination.DeliveryResult");
  }

  @Test
  void theCompletionPathsStorageKnowsNeitherTheRetryPolicyNorTheDestinationsAnswer() {
    for (String storage : STORAGE) {
      assertThat(references(storage))
          .as(storage + " refers to")
          .noneMatch(r -> r.startsWith(BASE + "retry."))
          .noneMatch(r -> r.startsWith(BASE + "destination."));
    }
  }

  @Test
  void onlyTheCompletionPackageTurnsTheRetryVerdictIntoACompletion() {
    List<String> users =
        sources.keySet().stream()
            .filter(c -> !c.startsWith("retry.")) // where Decision is made
            .filter(c -> references(c).stream().anyMatch(ArchitectureTest::isDecision))
            .toList();

    assertThat(users).isNotEmpty().allMatch(c -> c.startsWith("completion."), "in completion/");
  }

  /** Imported types (wildcards as {@code pkg.*}) and fully qualified names used in the code. */
  private static List<String> references(String className) {
    String source = sources.get(className);
    Matcher imports =
        Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;", Pattern.MULTILINE)
            .matcher(source);
    Matcher qualified = Pattern.compile("\\b(dev\\.onceonly\\.relay\\.[\\w.]+)").matcher(source);
    Stream.Builder<String> found = Stream.builder();
    while (imports.find()) {
      found.add(imports.group(1));
    }
    while (qualified.find()) {
      found.add(qualified.group(1));
    }
    return found.build().distinct().toList();
  }

  private static boolean isDecision(String reference) {
    return reference.equals(DECISION)
        || reference.startsWith(DECISION + ".")
        || reference.equals(BASE + "retry.*");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

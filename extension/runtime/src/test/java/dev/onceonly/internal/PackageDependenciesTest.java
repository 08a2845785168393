package dev.onceonly.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The platform's package boundaries, read from the sources: the claim's SQL ({@code claim}) knows
 * nothing of the transaction machinery ({@code processing}) that runs it, {@code claim} and {@code
 * metrics} do not know each other, and the public API ({@code dev.onceonly.api}) depends on no
 * internal package. A reference counts whether it is an import, a static import or a fully
 * qualified name in the code.
 */
class PackageDependenciesTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/onceonly/internal");
  private static final Pattern REFERENCE =
      Pattern.compile("\\bdev\\.onceonly\\.internal\\.([a-z]+)\\.");

  @Test
  void claimUsesNeitherTheTransactionMachineryNorTheMetrics() {
    assertThat(referencedPackages("claim")).doesNotContain("processing", "metrics");
  }

  @Test
  void metricsDoNotUseTheClaim() {
    assertThat(referencedPackages("metrics")).doesNotContain("claim");
  }

  @Test
  void thePublicApiUsesNoInternalPackage() throws IOException {
    try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/onceonly/api"))) {
      assertThat(
              files
                  .filter(f -> f.toString().endsWith(".java"))
                  .flatMap(PackageDependenciesTest::references)
                  .toList())
          .isEmpty();
    }
  }

  @Test
  void theScanSeesReferencesWhereTheyExist() {
    // Guards the test itself: a scan that found nothing would let every rule pass.
    assertThat(referencedPackages("claim")).contains("db", "config");
    assertThat(references(SOURCES.resolve("processing/MessageDecider.java")).toList())
        .contains("claim");
    assertThat(referencedPackages("processing")).contains("claim", "metrics");
  }

  /** The consumer's packages that the sources of {@code pkg} refer to, other than itself. */
  static List<String> referencedPackages(String pkg) {
    Path dir = SOURCES.resolve(pkg);
    assertThat(dir).as("package %s exists", pkg).isDirectory();
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .flatMap(PackageDependenciesTest::references)
          .filter(p -> !p.equals(pkg))
          .distinct()
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<String> references(Path file) {
    String source;
    try {
      source = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The package declaration names the file's own package, not a dependency.
    String code = source.replaceFirst("(?m)^package [^;]+;", "");
    Matcher m = REFERENCE.matcher(code);
    Stream.Builder<String> found = Stream.builder();
    while (m.find()) {
      found.add(m.group(1));
    }
    return found.build();
  }
}

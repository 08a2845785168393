package dev.onceonly.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a service built on the OnceOnly extension may use of it: the public package {@code
 * dev.onceonly.api} only. Lists every reference to the extension's internal packages in a source
 * tree (imports, static imports and fully qualified names), for a test that expects none.
 */
public final class PublicApi {

  private static final Pattern INTERNAL = Pattern.compile("\\bdev\\.onceonly\\.internal\\.[\\w.]+");

  private PublicApi() {}

  /** {@code file: reference} for every internal reference under {@code sources}. */
  public static List<String> internalReferences(Path sources) {
    try (Stream<Path> files = Files.walk(sources)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .flatMap(PublicApi::references)
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
    Matcher m = INTERNAL.matcher(source);
    Stream.Builder<String> found = Stream.builder();
    while (m.find()) {
      found.add(file.getFileName() + ": " + m.group());
    }
    return found.build();
  }
}

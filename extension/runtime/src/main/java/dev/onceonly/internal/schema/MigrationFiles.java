package dev.onceonly.internal.schema;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;

/**
 * The migration files of one history, listed by the build (the extension's deployment step walks
 * the folder on the build's class path) and read from the class path when Flyway asks: Flyway's own
 * class-path scanning cannot list folders inside the jars of a packaged Quarkus service.
 */
final class MigrationFiles implements ResourceProvider {

  private final List<LoadableResource> files = new ArrayList<>();

  /** {@code paths}: class-path paths of the files, such as {@code db/onceonly/V1__platform.sql}. */
  MigrationFiles(List<String> paths) {
    for (String path : paths) {
      files.add(new File(path));
    }
  }

  @Override
  public LoadableResource getResource(String name) {
    return files.stream()
        .filter(f -> f.getRelativePath().equals(name) || f.getAbsolutePath().equals(name))
        .findFirst()
        .orElse(null);
  }

  @Override
  public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
    return files.stream()
        .filter(f -> f.getFilename().startsWith(prefix))
        .filter(f -> Arrays.stream(suffixes).anyMatch(f.getFilename()::endsWith))
        .toList();
  }

  /** One migration file on the class path. */
  private static final class File extends LoadableResource {

    private final String path;

    File(String path) {
      this.path = path;
    }

    @Override
    public Reader read() {
      InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(path);
      if (in == null) {
        in = MigrationFiles.class.getClassLoader().getResourceAsStream(path);
      }
      if (in == null) {
        throw new IllegalStateException("migration " + path + " is not on the class path");
      }
      return new InputStreamReader(in, StandardCharsets.UTF_8);
    }

    @Override
    public String getAbsolutePath() {
      return path;
    }

    @Override
    public String getAbsolutePathOnDisk() {
      return path;
    }

    @Override
    public String getFilename() {
      return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public String getRelativePath() {
      return getFilename();
    }
  }
}

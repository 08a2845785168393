package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OutboxSchemaTest {

  private static final Pattern MIGRATION = Pattern.compile("V([0-9]+(?:_[0-9]+)*)__.+\\.sql");

  @Test
  void requiredVersionIsTheNewestMigrationShipped() throws IOException, URISyntaxException {
    URL folder = OutboxSchemaTest.class.getClassLoader().getResource(OutboxSchema.MIGRATIONS);
    assertThat(folder).as("classpath:" + OutboxSchema.MIGRATIONS).isNotNull();

    List<String> versions;
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      versions =
          files
              .map(p -> MIGRATION.matcher(p.getFileName().toString()))
              .filter(Matcher::matches)
              .map(m -> m.group(1).replace('_', '.'))
              .sorted(OutboxSchemaTest::compareVersions)
              .toList();
    }
    assertThat(versions).startsWith("1").doesNotHaveDuplicates();
    assertThat(versions.get(versions.size() - 1)).isEqualTo(OutboxSchema.REQUIRED_VERSION);
  }

  private static int compareVersions(String a, String b) {
    String[] left = a.split("\\.");
    String[] right = b.split("\\.");
    for (int i = 0; i < Math.max(left.length, right.length); i++) {
      int l = i < left.length ? Integer.parseInt(left[i]) : 0;
      int r = i < right.length ? Integer.parseInt(right[i]) : 0;
      if (l != r) {
        return Integer.compare(l, r);
      }
    }
    return 0;
  }

  @Test
  void ddlCreatesBothTablesAndNotifiesTheChannelOncePerInsertStatement() {
    String ddl = ddl();

    assertThat(ddl).contains("CREATE TABLE outbox (").contains("CREATE TABLE outbox_attempts (");
    assertThat(ddl).contains("pg_notify('" + OutboxSchema.NOTIFY_CHANNEL + "', '')");
    assertThat(ddl)
        .containsPattern("AFTER INSERT ON outbox\\s+FOR EACH STATEMENT EXECUTE FUNCTION");
    assertThat(ddl).containsPattern("REFERENCES outbox \\(id\\) ON DELETE CASCADE");
  }

  @Test
  void ddlHasNoSchemaPrefixSoFlywayPlacesItInTheOutboxSchema() {
    assertThat(OutboxSchema.SCHEMA).isEqualTo("outbox");
    assertThat(ddl()).doesNotContainPattern("(?i)(CREATE|ON|REFERENCES)\\s+(TABLE\\s+)?outbox\\.");
  }

  @Test
  void pendingRowsStartDueWithNoAttempts() {
    assertThat(ddl())
        .containsPattern("status\\s+text\\s+NOT NULL DEFAULT 'pending'")
        .containsPattern("attempts\\s+integer\\s+NOT NULL DEFAULT 0 CHECK \\(attempts >= 0\\)")
        .containsPattern(
            "CREATE INDEX outbox_due_idx ON outbox \\(available_at, id\\) "
                + "WHERE status = 'pending'");
  }

  /** The quoted values of {@code CHECK (<column> IN (...))} in V1. */
  static List<String> checkConstraintValues(String column) {
    Matcher check = Pattern.compile("CHECK \\(" + column + " IN \\(([^)]*)\\)\\)").matcher(ddl());
    assertThat(check.find()).as("CHECK on " + column).isTrue();
    return Arrays.stream(check.group(1).split(",")).map(v -> v.trim().replace("'", "")).toList();
  }

  static String ddl() {
    String path = OutboxSchema.MIGRATIONS + "/V1__outbox.sql";
    try (InputStream in = OutboxSchemaTest.class.getClassLoader().getResourceAsStream(path)) {
      assertThat(in).as("classpath:" + path).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.onceonly.relay.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.model.OutboxSchema;
import dev.onceonly.relay.support.OutboxMigrations;
import dev.onceonly.testsupport.PostgresResource;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.ValidateResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upgrading a deployed outbox schema with the outbox migrations as consumer-service and the
 * migrations Job run them ({@link OutboxMigrations}). V4_1 and V4_2 were committed after V5 (on
 * another branch), so a database that a build of that branch migrated stands at V5 without them;
 * the migrations shipped now must bring them in, while a database that applied them in order is
 * left as it is (shared-model/src/main/resources/db/outbox/README.md).
 */
class OutboxUpgradeTest {

  private static final String DATABASE = "onceonly_relay_upgrade_test";

  private Map<String, String> database;

  @BeforeEach
  void emptyDatabase() {
    PostgresResource postgres = new PostgresResource();
    postgres.init(Map.of("database", DATABASE, "fresh", "true"));
    database = postgres.start();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"V4_2__outbox_keys.sql", "V4_1__audit_commit_mode.sql V4_2__outbox_keys.sql"})
  void anOutboxAtV5FromABuildWithoutTheLaterLowerVersionsIsUpgraded(
      String missing, @TempDir Path earlierBuild) throws Exception {
    List<String> shipped = copyMigrationsExcept(Arrays.asList(missing.split(" ")), earlierBuild);
    assertThat(shipped).contains("V5__outbox_console.sql").doesNotContain(missing.split(" "));
    List<String> later = laterThanV5();
    // The earlier build: the same settings, its own (smaller) set of migrations.
    OutboxMigrations.configure(url(), user(), password())
        .locations("filesystem:" + earlierBuild)
        .load()
        .migrate();
    try (Connection c = connect()) {
      assertThat(OutboxRowsIn.scalar(c, "SELECT to_regclass('outbox.outbox_keys') IS NULL"))
          .isEqualTo("t");
      // Written by that build's consumer before the upgrade: its key must be kept afterwards.
      OutboxRowsIn.execute(
          c,
          "INSERT INTO outbox.outbox (kind, payload, idempotency_key) VALUES"
              + " ('send_receipt', '{}', 'oo1:send_receipt:receipts:order-completed:before')");
      OutboxRowsIn.execute(
          c,
          "INSERT INTO outbox.outbox_audit (actor, action, affected_count) VALUES ('ops', 'retry', 1)");
      assertThat(SchemaCheck.problems(c))
          .as("the relay of this build must wait for the upgrade")
          .contains("table outbox.outbox_keys does not exist");
    }

    Flyway upgrade = OutboxMigrations.configure(url(), user(), password()).load();
    MigrateResult result = upgrade.migrate();

    assertThat(result.success).isTrue();
    List<String> expected =
        new ArrayList<>(Arrays.stream(missing.split(" ")).map(OutboxUpgradeTest::version).toList());
    expected.addAll(later);
    assertThat(result.migrations).extracting(m -> m.version).containsExactlyElementsOf(expected);
    ValidateResult validation = upgrade.validateWithResult();
    assertThat(validation.validationSuccessful).as(validation.getAllErrorMessages()).isTrue();
    assertThat(upgrade.info().pending()).isEmpty();
    assertThat(upgrade.info().current().getVersion().getVersion())
        .isEqualTo(OutboxSchema.REQUIRED_VERSION);
    assertThat(
            Arrays.stream(upgrade.info().applied())
                .filter(m -> m.getState() == MigrationState.OUT_OF_ORDER)
                .map(m -> m.getVersion().getVersion()))
        .containsExactlyElementsOf(
            Arrays.stream(missing.split(" ")).map(OutboxUpgradeTest::version).toList());
    try (Connection c = connect()) {
      assertThat(
              OutboxRowsIn.scalar(
                  c,
                  "SELECT count(*) FROM outbox.outbox_keys"
                      + " WHERE idempotency_key = 'oo1:send_receipt:receipts:order-completed:before'"))
          .isEqualTo("1");
      assertThat(OutboxRowsIn.scalar(c, "SELECT count(commit_mode) FROM outbox.outbox_audit"))
          .isEqualTo("1");
      assertThat(SchemaCheck.problems(c)).isEmpty();
    }
    // And it stays upgraded: the next start (or Job) finds nothing to do.
    assertThat(OutboxMigrations.configure(url(), user(), password()).load().migrate())
        .satisfies(again -> assertThat(again.migrationsExecuted).isZero());
  }

  @Test
  void anOutboxThatAppliedEveryMigrationInOrderIsLeftAsItIs() throws SQLException {
    // As a build that had V4_1 and V4_2 before V5 migrated it: in order, Flyway's defaults.
    Flyway.configure()
        .dataSource(url(), user(), password())
        .schemas(OutboxSchema.SCHEMA)
        .table(OutboxSchema.HISTORY_TABLE)
        .locations("classpath:" + OutboxSchema.MIGRATIONS)
        .load()
        .migrate();
    List<String> before = history();

    Flyway upgrade = OutboxMigrations.configure(url(), user(), password()).load();
    MigrateResult result = upgrade.migrate();

    assertThat(result.migrationsExecuted).isZero();
    ValidateResult validation = upgrade.validateWithResult();
    assertThat(validation.validationSuccessful).as(validation.getAllErrorMessages()).isTrue();
    assertThat(history()).isEqualTo(before);
    assertThat(Arrays.stream(upgrade.info().applied()).map(MigrationInfo::getState))
        .containsOnly(MigrationState.SUCCESS);
    try (Connection c = connect()) {
      assertThat(SchemaCheck.problems(c)).isEmpty();
    }
  }

  @Test
  void consumerServiceMigratesTheOutboxOutOfOrder() {
    assertThat(OutboxMigrations.flywaySettings())
        .containsEntry("flyway.outOfOrder", "true")
        .containsEntry("flyway.schemas", OutboxSchema.SCHEMA)
        .containsEntry("flyway.table", OutboxSchema.HISTORY_TABLE)
        .containsEntry("flyway.locations", OutboxSchema.MIGRATIONS);
  }

  private List<String> history() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = connect();
        var statement = c.createStatement();
        var rs =
            statement.executeQuery(
                "SELECT installed_rank || ' ' || version || ' ' || checksum || ' ' || success"
                    + " FROM outbox.flyway_outbox_history ORDER BY installed_rank")) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }

  /** Versions of this build after 5, which the earlier build (it had V5 last) did not ship. */
  private static List<String> laterThanV5() throws IOException, URISyntaxException {
    List<String> later = new ArrayList<>();
    withMigrations(
        source -> {
          try (Stream<Path> files = Files.list(source)) {
            files
                .map(f -> f.getFileName().toString())
                .filter(n -> n.endsWith(".sql") && !FlywayVersions.atLeast("5", version(n)))
                .map(OutboxUpgradeTest::version)
                .sorted(FlywayVersions::compare)
                .forEach(later::add);
          }
          return later;
        });
    return later;
  }

  /**
   * Copies the outbox migrations on the classpath (shared-model's, in its jar or its classes
   * directory) into {@code target}, leaving out {@code missing} and every version after 5: what an
   * earlier build shipped.
   */
  private static List<String> copyMigrationsExcept(List<String> missing, Path target)
      throws IOException, URISyntaxException {
    return withMigrations(source -> copy(source, missing, target));
  }

  /** What a body reads in the outbox migrations' folder on the classpath. */
  private interface FolderBody {
    List<String> read(Path folder) throws IOException;
  }

  private static List<String> withMigrations(FolderBody body)
      throws IOException, URISyntaxException {
    URL folder = OutboxUpgradeTest.class.getClassLoader().getResource(OutboxSchema.MIGRATIONS);
    assertThat(folder).as("classpath:" + OutboxSchema.MIGRATIONS).isNotNull();
    URI uri = folder.toURI();
    if ("jar".equals(uri.getScheme())) {
      try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
        return body.read(jar.getPath(OutboxSchema.MIGRATIONS));
      }
    }
    return body.read(Path.of(uri));
  }

  private static List<String> copy(Path source, List<String> missing, Path target)
      throws IOException {
    List<String> copied = new ArrayList<>();
    try (Stream<Path> files = Files.list(source)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith(".sql")
            && !missing.contains(name)
            && FlywayVersions.atLeast("5", version(name))) {
          Files.copy(file, target.resolve(name));
          copied.add(name);
        }
      }
    }
    return copied;
  }

  private static String version(String script) {
    return script.substring(1, script.indexOf("__")).replace('_', '.');
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url(), user(), password());
  }

  private String url() {
    return database.get("quarkus.datasource.jdbc.url");
  }

  private String user() {
    return database.get("quarkus.datasource.username");
  }

  private String password() {
    return database.get("quarkus.datasource.password");
  }

  /** Two one-liners over a plain connection. */
  private static final class OutboxRowsIn {

    static String scalar(Connection c, String sql) throws SQLException {
      try (var statement = c.createStatement();
          var rs = statement.executeQuery(sql)) {
        rs.next();
        return rs.getString(1);
      }
    }

    static void execute(Connection c, String sql) throws SQLException {
      try (var statement = c.createStatement()) {
        statement.execute(sql);
      }
    }
  }
}

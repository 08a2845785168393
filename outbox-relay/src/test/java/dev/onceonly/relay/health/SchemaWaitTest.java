package dev.onceonly.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.testsupport.PostgresResource;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The relay's wait for its schema, against a database where nobody ran the migrations yet. */
class SchemaWaitTest {

  private final PostgresResource postgres = new PostgresResource();
  private final PGSimpleDataSource dataSource = new PGSimpleDataSource();
  private final AtomicInteger started = new AtomicInteger();
  private final CopyOnWriteArrayList<String> gaveUp = new CopyOnWriteArrayList<>();
  private SchemaWait wait;

  @BeforeEach
  void emptyDatabase() {
    postgres.init(Map.of("database", "onceonly_relay_schemawait_test", "fresh", "true"));
    Map<String, String> config = postgres.start();
    dataSource.setURL(config.get("quarkus.datasource.jdbc.url"));
    dataSource.setUser(config.get("quarkus.datasource.username"));
    dataSource.setPassword(config.get("quarkus.datasource.password"));
  }

  @AfterEach
  void stop() {
    if (wait != null) {
      wait.stop();
    }
    postgres.stop();
  }

  @Test
  void startsTheRelayOnceTheMigrationsRanInsteadOfFailing() {
    wait = wait(Duration.ofMinutes(5));
    wait.then(started::incrementAndGet);
    assertThat(wait.waiting()).isTrue();
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> started.get() == 0);

    OutboxTestResource.migrate(dataSource.getURL(), dataSource.getUser(), dataSource.getPassword());

    await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 1);
    assertThat(wait.waiting()).isFalse();
    assertThat(gaveUp).isEmpty();
  }

  @Test
  void givesUpAfterTheLimitNamingTheMigrationsJob() {
    wait = wait(Duration.ofSeconds(1));
    wait.then(started::incrementAndGet);

    await().atMost(Duration.ofSeconds(10)).until(() -> !gaveUp.isEmpty());
    assertThat(gaveUp.get(0))
        .startsWith("outbox schema still missing after PT1S")
        .contains("table outbox.outbox does not exist")
        .contains("the migrations Job of release 1.2.0-SNAPSHOT")
        .contains("kubectl logs -l app.kubernetes.io/component=migrations")
        .contains("DB_MIGRATE=true");
    assertThat(started).hasValue(0);
    assertThat(wait.waiting()).isFalse();
  }

  private SchemaWait wait(Duration limit) {
    return new SchemaWait(dataSource, limit, Duration.ofMillis(100), "1.2.0-SNAPSHOT", gaveUp::add);
  }
}

package dev.onceonly.relay.health;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.dispatch.RelayRunner;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.testsupport.PostgresResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A relay started before the migrations Job ran (an empty database) does not crash-loop: it is
 * live, not ready (naming what is missing), and starts delivering once the schema is there.
 */
@QuarkusTest
@TestProfile(WaitingForSchemaTest.EmptyDatabase.class)
class WaitingForSchemaTest {

  /** A database of its own, dropped before the start, with no outbox schema. */
  public static class EmptyDatabase implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
      Map<String, String> urls = new HashMap<>();
      for (String destination : OutboxTestResource.DESTINATIONS) {
        urls.put(
            "relay.destinations.\"" + destination + "\".http.url",
            "http://127.0.0.1:9/" + destination);
      }
      return urls;
    }

    @Override
    public List<TestResourceEntry> testResources() {
      return List.of(
          new TestResourceEntry(
              PostgresResource.class,
              Map.of("database", "onceonly_relay_waiting_test", "fresh", "true")));
    }

    @Override
    public boolean disableGlobalTestResources() {
      return true;
    }
  }

  @Inject RelayRunner runner;

  @TestHTTPResource(value = "/", management = true)
  URL management;

  @Test
  void isLiveButNotReadyUntilTheSchemaExistsThenStarts() {
    assertThat(runner.poller()).isEmpty();
    given()
        .baseUri(management.toString())
        .get("health/live")
        .then()
        .statusCode(200)
        .body(containsString("waiting for the outbox schema"));
    given()
        .baseUri(management.toString())
        .get("health/ready")
        .then()
        .statusCode(503)
        .body(containsString("table outbox.outbox does not exist"));

    Config config = ConfigProvider.getConfig();
    OutboxTestResource.migrate(
        config.getValue("quarkus.datasource.jdbc.url", String.class),
        config.getValue("quarkus.datasource.username", String.class),
        config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));

    await().atMost(Duration.ofSeconds(20)).until(() -> runner.poller().isPresent());
    given()
        .baseUri(management.toString())
        .get("health/live")
        .then()
        .statusCode(200)
        .body("status", is("UP"));
    given().baseUri(management.toString()).get("health/ready").then().statusCode(200);
  }
}

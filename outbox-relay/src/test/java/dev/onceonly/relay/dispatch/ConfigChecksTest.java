package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.support.Configs;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfigChecksTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aSettingLeftUnderTheOldRelayKindsStopsTheStartNamingIt() {
    assertThatThrownBy(
            () ->
                ConfigChecks.renamedKinds(
                    Configs.raw(Map.of("relay.kinds.\"send_receipt\".base-url", "http://h"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("relay.kinds.\"send_receipt\".base-url is set, but relay.kinds")
        .hasMessageContaining("relay.destinations.\"<name>\"");
    assertThatCode(
            () ->
                ConfigChecks.renamedKinds(
                    Configs.raw(Map.of("relay.destinations.\"a\".type", "http"))))
        .doesNotThrowAnyException();
  }

  @Test
  void theLeaseMustOutlastTheLongestCallOfEveryDestination() {
    Map<String, String> properties =
        Map.of(
            "relay.lease-duration", "5s",
            "relay.destinations.\"quick\".http.url", "http://h:1/q",
            "relay.destinations.\"quick\".http.read-timeout", "1s",
            "relay.destinations.\"slow\".http.url", "http://h:1/s",
            "relay.destinations.\"slow\".http.connect-timeout", "1s",
            "relay.destinations.\"slow\".http.read-timeout", "5s");

    assertThatThrownBy(
            () ->
                ConfigChecks.settings(
                    Configs.fromProperties(properties),
                    new Destinations(Configs.fromProperties(properties), vertx),
                    Configs.raw(properties)))
        .hasMessage(
            "relay.lease-duration (PT5S) must exceed the longest call to destination 'slow'"
                + " (PT6S, connect + read timeout)");
  }

  @Test
  void aRelayWithoutADestinationDoesNotStart() {
    Map<String, String> none = Map.of("relay.batch-size", "10");

    assertThatThrownBy(
            () ->
                ConfigChecks.settings(
                    Configs.fromProperties(none),
                    new Destinations(Configs.fromProperties(none), vertx),
                    Configs.raw(none)))
        .hasMessageStartingWith("relay.destinations must configure at least one destination");
  }
}

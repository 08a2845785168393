package dev.onceonly.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the provider sandbox saw for one API: its counters ({@code GET /sandbox/stats}) and the
 * effects it took ({@code GET /sandbox/effects/{api}}), each with the key and body that took it.
 */
public record SandboxStats(
    String api,
    long rawCalls,
    long effectiveCalls,
    long replays,
    long refusals,
    long keysCalledMoreThanOnce,
    JsonNode injectedFaults,
    List<Effect> effects) {

  /** One effect: the idempotency key it was taken with and the request body. */
  public record Effect(String key, JsonNode body, int calls) {}

  private static final int MAX_EFFECTS = 10_000;

  public static SandboxStats fetch(String sandboxUrl, String api)
      throws IOException, InterruptedException {
    JsonNode stats = Http.getJson(sandboxUrl + "/sandbox/stats").path(api);
    if (stats.isMissingNode()) {
      throw new IOException("the sandbox's stats have no API '" + api + "'");
    }
    JsonNode list = Http.getJson(sandboxUrl + "/sandbox/effects/" + api + "?limit=" + MAX_EFFECTS);
    List<Effect> effects = new ArrayList<>();
    for (JsonNode e : list.path("effects")) {
      effects.add(
          new Effect(e.path("idempotencyKey").asText(), e.path("body"), e.path("calls").asInt()));
    }
    return new SandboxStats(
        api,
        stats.path("rawCalls").asLong(),
        stats.path("effectiveCalls").asLong(),
        stats.path("replays").asLong(),
        stats.path("refusals").asLong(),
        stats.path("keysCalledMoreThanOnce").asLong(),
        stats.path("injectedFaults"),
        effects);
  }
}

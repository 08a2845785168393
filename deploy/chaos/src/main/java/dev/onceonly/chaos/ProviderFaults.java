package dev.onceonly.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.pipeline.Http;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: a provider having a bad day while the stream flows: 20 % 5xx before the effect, 2 s
 * added to every answer, 2 % of calls take the effect and hang past the relay's 3 s read timeout, 5
 * % take the effect and then answer 500, 3 % are throttled with 429 and Retry-After. Every row must
 * still end delivered, each key's effect taken once.
 *
 * <p>The rates add up to 30 % of calls failing, more once a hang's retries meet the 409 of the call
 * still in progress. With the relay's 10 attempts, a full run of 2,134 rows had one row go dead at
 * 40 % (the last answer a 429) and one at 30 % (the last a 500 after the effect), as the relay is
 * configured to: the invariants rightly count such a row lost until an operator replays it
 * (scenario 10). The suite's relays have 20 attempts (see {@link Fleet#RELAY_SETTINGS}).
 */
final class ProviderFaults extends Scenario {

  static final String FAULTS =
      """
      {"errorRate": 0.20, "latencyMs": 2000, "hangRate": 0.02, "hangMs": 5000,
       "effectThenFailRate": 0.05, "effectThenFailMode": "500",
       "throttleRate": 0.03, "retryAfterSeconds": 1}
      """;

  ProviderFaults() {
    super(5, "provider: 20% 5xx, 2 s latency, hangs, effect-then-fail, 429");
  }

  @Override
  void before(Lab lab) throws Exception {
    lab.providerFaults(FAULTS);
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    sleepUntil(untilNanos, untilNanos);
  }

  @Override
  void after(Lab lab) throws Exception {
    JsonNode stats = Http.getJson(lab.fleet.sandboxUrl + "/sandbox/stats");
    int injected = 0;
    StringBuilder byType = new StringBuilder();
    for (String api : List.of("receipts", "payouts")) {
      Iterator<Map.Entry<String, JsonNode>> it = stats.path(api).path("injectedFaults").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals("latency")) {
          injected += e.getValue().asInt();
          byType
              .append(api)
              .append('/')
              .append(e.getKey())
              .append(' ')
              .append(e.getValue())
              .append("  ");
        }
      }
    }
    lab.faults.set(injected);
    notes.add("faults by type: " + byType.toString().trim());
    lab.providerFaults(null);
  }
}

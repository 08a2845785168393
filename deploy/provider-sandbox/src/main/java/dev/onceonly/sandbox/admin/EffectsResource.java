package dev.onceonly.sandbox.admin;

import dev.onceonly.sandbox.idempotency.CanonicalJson;
import dev.onceonly.sandbox.idempotency.Effect;
import dev.onceonly.sandbox.problem.ProblemException;
import dev.onceonly.sandbox.provider.Api;
import dev.onceonly.sandbox.provider.ApiState;
import dev.onceonly.sandbox.provider.SandboxState;
import dev.onceonly.sandbox.stats.KeyCalls;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** What the provider did, key by key: effects and call logs. */
@Path("/sandbox")
@Produces(MediaType.APPLICATION_JSON)
public class EffectsResource {

  private final SandboxState state;
  private final CanonicalJson json;

  public EffectsResource(SandboxState state, CanonicalJson json) {
    this.state = state;
    this.json = json;
  }

  /** The effect taken with a key, with its call count; 404 if none was taken. */
  @GET
  @Path("/effects/{api}/{key}")
  public EffectView effect(@PathParam("api") String api, @PathParam("key") String key) {
    ApiState s = state.of(Api.fromPath(api));
    Effect effect =
        s.store()
            .effect(key)
            .orElseThrow(
                () ->
                    new ProblemException(
                        404,
                        "no-effect",
                        "No effect",
                        "No " + api + " effect was taken with key '" + key + "'."));
    return view(s, effect);
  }

  /** The oldest effects of an API, in the order they were taken. */
  @GET
  @Path("/effects/{api}")
  public EffectList effects(
      @PathParam("api") String api, @QueryParam("limit") @DefaultValue("100") int limit) {
    if (limit < 1 || limit > 10_000) {
      throw new ProblemException(
          400, "invalid-limit", "Invalid limit", "limit must be between 1 and 10000.");
    }
    ApiState s = state.of(Api.fromPath(api));
    List<EffectView> effects = s.store().effects(limit).stream().map(e -> view(s, e)).toList();
    return new EffectList(api, s.stats().effectiveCalls(), effects);
  }

  /** The calls made with a key, effect or not; 404 if the key was never used. */
  @GET
  @Path("/calls/{api}/{key}")
  public KeyCallsView calls(@PathParam("api") String api, @PathParam("key") String key) {
    ApiState s = state.of(Api.fromPath(api));
    KeyCalls calls =
        s.calls()
            .calls(key)
            .orElseThrow(
                () ->
                    new ProblemException(
                        404,
                        "unknown-key",
                        "Unknown key",
                        "No " + api + " call was made with key '" + key + "'."));
    return new KeyCallsView(
        api,
        key,
        calls.count(),
        Instant.ofEpochMilli(calls.firstReceivedAt()),
        Instant.ofEpochMilli(calls.lastReceivedAt()),
        calls.lastAnsweredAt() == 0 ? null : Instant.ofEpochMilli(calls.lastAnsweredAt()),
        calls.lastOutcome(),
        s.store().effect(key).map(Effect::id).orElse(null),
        calls.traceparents());
  }

  private EffectView view(ApiState s, Effect effect) {
    KeyCalls calls = s.calls().calls(effect.idempotencyKey()).orElse(null);
    return new EffectView(
        effect.id(),
        effect.api(),
        effect.idempotencyKey(),
        json.tree(effect.body()),
        effect.createdAt(),
        calls == null ? 0 : calls.count(),
        calls == null ? null : calls.lastOutcome());
  }

  /** A page of effects; {@code total} counts all effects of the API. */
  public record EffectList(String api, long total, List<EffectView> effects) {}
}

package dev.onceonly.sandbox.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.sandbox.idempotency.Effect;
import dev.onceonly.sandbox.idempotency.StoredResponse;
import dev.onceonly.sandbox.problem.Problem;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Map;

/** Builds the provider's answers. */
@Singleton
public class Replies {

  static final String JSON = "application/json";
  static final String REPLAYED = "Idempotency-Replayed";

  private final ObjectMapper mapper;

  public Replies(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The answer of the call that took {@code effect}, kept to be replayed. */
  public StoredResponse accepted(Api api, Effect effect) {
    return new StoredResponse(
        201,
        bytes(
            new Accepted(
                effect.id(),
                api.objectName(),
                effect.idempotencyKey(),
                "accepted",
                effect.createdAt())));
  }

  public Reply created(StoredResponse stored) {
    return new Reply(stored.status(), JSON, stored.body(), Map.of(), false, "created");
  }

  public Reply replayed(StoredResponse stored) {
    return new Reply(
        stored.status(), JSON, stored.body(), Map.of(REPLAYED, "true"), false, "replayed");
  }

  public Reply refusal(int status, String slug, String title, String detail, String key) {
    return problem(Problem.of(status, slug, title, detail, key), Map.of(), "refused-" + status);
  }

  public Reply injectedError(int status, String key) {
    return problem(
        Problem.of(
            status,
            "injected-error",
            "Injected provider error",
            "The sandbox failed this call on purpose, before taking effect.",
            key),
        Map.of(),
        "fault-" + status);
  }

  public Reply throttled(int retryAfterSeconds, String key) {
    return problem(
        Problem.of(
            429,
            "throttled",
            "Too many requests",
            "The sandbox throttled this call on purpose; retry after " + retryAfterSeconds + " s.",
            key),
        Map.of("Retry-After", Integer.toString(retryAfterSeconds)),
        "fault-429");
  }

  public Reply effectThen500(String key) {
    return problem(
        Problem.of(
            500,
            "injected-error-after-effect",
            "Injected provider error after the effect",
            "The effect was taken and its answer stored; retry with the same key to get it.",
            key),
        Map.of(),
        "effect-then-500");
  }

  public Reply dropped() {
    return new Reply(0, JSON, new byte[0], Map.of(), true, "effect-then-drop");
  }

  /** No answer at all, and nothing taken: the connection is closed after a hang. */
  public Reply stalled() {
    return new Reply(0, JSON, new byte[0], Map.of(), true, "stalled");
  }

  private Reply problem(Problem problem, Map<String, String> headers, String outcome) {
    return new Reply(problem.status(), Problem.MEDIA_TYPE, bytes(problem), headers, false, outcome);
  }

  private byte[] bytes(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value, e);
    }
  }

  /** The body of a 201: what the provider accepted. */
  record Accepted(
      String id, String object, String idempotencyKey, String status, Instant createdAt) {}
}

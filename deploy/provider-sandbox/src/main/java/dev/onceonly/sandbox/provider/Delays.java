package dev.onceonly.sandbox.provider;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/** Injected latency on Vert.x timers: no thread sleeps while a call waits. */
@ApplicationScoped
public class Delays {

  private final Vertx vertx;

  public Delays(Vertx vertx) {
    this.vertx = vertx;
  }

  /** {@code value} computed after {@code millis}, or at once when {@code millis <= 0}. */
  public <T> Uni<T> after(long millis, Supplier<T> value) {
    if (millis <= 0) {
      return Uni.createFrom().item(value);
    }
    return Uni.createFrom()
        .emitter(
            emitter ->
                vertx.setTimer(
                    millis,
                    id -> {
                      try {
                        emitter.complete(value.get());
                      } catch (RuntimeException e) {
                        emitter.fail(e);
                      }
                    }));
  }
}

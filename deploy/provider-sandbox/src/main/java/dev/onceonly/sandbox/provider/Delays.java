package dev.onceonly.sandbox.provider;

import io.vertx.core.Vertx;
import jakarta.inject.Singleton;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Injected latency on Vert.x timers: no thread sleeps while a call waits. */
@Singleton
public class Delays {

  private final Vertx vertx;

  public Delays(Vertx vertx) {
    this.vertx = vertx;
  }

  /** {@code value} computed after {@code millis}, or at once when {@code millis <= 0}. */
  public <T> CompletableFuture<T> after(long millis, Supplier<T> value) {
    if (millis <= 0) {
      return compute(value);
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    vertx.setTimer(
        millis,
        id ->
            compute(value)
                .whenComplete(
                    (item, failure) -> {
                      if (failure != null) {
                        result.completeExceptionally(failure);
                      } else {
                        result.complete(item);
                      }
                    }));
    return result;
  }

  private static <T> CompletableFuture<T> compute(Supplier<T> value) {
    try {
      return CompletableFuture.completedFuture(value.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}

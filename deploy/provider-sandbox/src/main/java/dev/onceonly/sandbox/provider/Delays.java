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
    CompletableFuture<T> result = new CompletableFuture<>();
    if (millis <= 0) {
      compute(value, result);
    } else {
      vertx.setTimer(millis, id -> compute(value, result));
    }
    return result;
  }

  private static <T> void compute(Supplier<T> value, CompletableFuture<T> result) {
    try {
      result.complete(value.get());
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }
}

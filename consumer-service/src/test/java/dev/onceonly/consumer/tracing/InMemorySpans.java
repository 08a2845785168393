package dev.onceonly.consumer.tracing;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Spans exported to memory, for tests that read them (with {@link TracingProfile}). */
@ApplicationScoped
public class InMemorySpans {

  @Produces
  @Singleton
  InMemorySpanExporter exporter() {
    return InMemorySpanExporter.create();
  }
}

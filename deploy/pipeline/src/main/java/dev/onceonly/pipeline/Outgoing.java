package dev.onceonly.pipeline;

/** One message to publish on {@code loyalty.events}: copies of an event share the same bytes. */
public record Outgoing(String routingKey, byte[] body) {}

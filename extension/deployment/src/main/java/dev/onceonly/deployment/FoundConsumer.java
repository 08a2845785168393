package dev.onceonly.deployment;

import org.jboss.jandex.DotName;

/** One {@code @OnceOnlyConsumer} as the build found it. */
record FoundConsumer(
    String name,
    String channel,
    boolean claims,
    DotName handler,
    DotName eventType,
    DotName decoder) {}

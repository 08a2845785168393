package dev.onceonly.relay.operations;

import java.util.List;

/** One page of a keyset listing; {@code nextCursor} is null on the last page. */
public record Page<T>(List<T> items, Long nextCursor) {}

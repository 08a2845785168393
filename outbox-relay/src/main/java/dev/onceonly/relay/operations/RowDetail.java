package dev.onceonly.relay.operations;

import java.util.List;

/** A row with its payload (as stored, JSON text) and every attempt, oldest first. */
public record RowDetail(OutboxRow row, String payload, List<Attempt> attempts) {}

package dev.onceonly.model;

/** A valid event with the fingerprint of the body it came in. */
public record DecodedEvent(LoyaltyEvent event, String payloadSha256) {}

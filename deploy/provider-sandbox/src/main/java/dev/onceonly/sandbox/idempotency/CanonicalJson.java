package dev.onceonly.sandbox.idempotency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Canonical JSON: compact, object fields sorted by name at every depth. Two bodies that differ only
 * in field order or whitespace have the same canonical bytes, so a retry is recognised as the same
 * request.
 */
@Singleton
public class CanonicalJson {

  private final ObjectMapper mapper;
  private final ObjectReader strictReader;

  public CanonicalJson(ObjectMapper mapper) {
    this.mapper = mapper;
    this.strictReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }

  /**
   * @throws IOException if the body is empty or not one JSON document
   */
  public byte[] canonicalize(byte[] body) throws IOException {
    JsonNode tree;
    try {
      tree = body == null || body.length == 0 ? null : strictReader.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IOException(e.getOriginalMessage(), e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw new IOException("the body is empty");
    }
    return mapper.writeValueAsBytes(sorted(tree));
  }

  /** Reads canonical bytes back, for display. */
  public JsonNode tree(byte[] canonical) {
    try {
      return mapper.readTree(canonical);
    } catch (IOException e) {
      throw new IllegalStateException("stored JSON is unreadable", e);
    }
  }

  private JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      Collections.sort(names);
      ObjectNode out = mapper.createObjectNode();
      for (String name : names) {
        out.set(name, sorted(node.get(name)));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = mapper.createArrayNode();
      node.forEach(element -> out.add(sorted(element)));
      return out;
    }
    return node;
  }
}

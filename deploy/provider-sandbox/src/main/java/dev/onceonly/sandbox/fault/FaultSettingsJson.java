package dev.onceonly.sandbox.fault;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceonly.sandbox.provider.Api;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The JSON shape of the fault settings, the same as the {@code sandbox.faults.*} keys: global
 * switches at the top level, {@code receipts}, {@code payouts} and {@code webhooks} objects
 * overriding them, {@code seed} and {@code script}. Unknown fields are refused so that a typo does
 * not go unnoticed.
 */
@ApplicationScoped
public class FaultSettingsJson {

  private static final List<String> OWN_FIELDS =
      List.of("seed", "receipts", "payouts", "webhooks", "script");

  private final ObjectMapper mapper;
  private final ObjectReader ratesReader;

  public FaultSettingsJson(ObjectMapper mapper) {
    this.mapper = mapper;
    this.ratesReader =
        mapper.readerFor(FaultRates.class).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /**
   * @throws IllegalArgumentException if the document does not have the shape of fault settings
   */
  public FaultSettings read(JsonNode json) {
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("the body must be a JSON object");
    }
    ObjectNode global = ((ObjectNode) json).deepCopy();
    global.remove(OWN_FIELDS);
    try {
      return new FaultSettings(
          seed(json.get("seed")),
          ratesReader.readValue(global),
          rates(json.get("receipts")),
          rates(json.get("payouts")),
          rates(json.get("webhooks")),
          script(json.get("script")));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The settings as written, plus {@code effective}: what each API really gets. */
  public ObjectNode write(FaultPolicy policy) {
    FaultSettings settings = policy.settings();
    ObjectNode json = mapper.valueToTree(settings.global());
    if (settings.seed() != null) {
      json.put("seed", settings.seed());
    }
    json.set("receipts", mapper.valueToTree(settings.receipts()));
    json.set("payouts", mapper.valueToTree(settings.payouts()));
    json.set("webhooks", mapper.valueToTree(settings.webhooks()));
    json.set("script", mapper.valueToTree(settings.script()));
    ObjectNode effective = json.putObject("effective");
    for (Api api : Api.values()) {
      effective.set(api.path(), mapper.valueToTree(policy.rates(api)));
    }
    return json;
  }

  private static Long seed(JsonNode json) {
    if (json == null || json.isNull()) {
      return null;
    }
    if (!json.isIntegralNumber() || !json.canConvertToLong()) {
      throw new IllegalArgumentException("seed must be an integer");
    }
    return json.asLong();
  }

  private FaultRates rates(JsonNode json) throws IOException {
    return json == null || json.isNull() ? FaultRates.UNSET : ratesReader.readValue(json);
  }

  private Map<String, List<String>> script(JsonNode json) throws IOException {
    if (json == null || json.isNull()) {
      return Map.of();
    }
    return mapper.readerFor(new TypeReference<Map<String, List<String>>>() {}).readValue(json);
  }
}

package dev.onceonly.sandbox.provider;

import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Map;

/** The sandbox's whole state, in memory: one {@link ApiState} per API. Lost on restart. */
@Singleton
public class SandboxState {

  private final Map<Api, ApiState> apis = new EnumMap<>(Api.class);

  public SandboxState() {
    for (Api api : Api.values()) {
      apis.put(api, new ApiState(api));
    }
  }

  public ApiState of(Api api) {
    return apis.get(api);
  }

  /** Forgets every key, effect and counter of both APIs. Faults are left as they are. */
  public void reset() {
    apis.values().forEach(ApiState::clear);
  }
}

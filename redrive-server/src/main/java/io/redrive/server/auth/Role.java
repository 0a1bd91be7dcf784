package io.redrive.server.auth;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** A key's role: the permissions it grants. */
public enum Role {
  ADMIN(EnumSet.allOf(Permission.class)),
  PRODUCER(EnumSet.of(Permission.VIEW, Permission.PRODUCE)),
  CONSUMER(EnumSet.of(Permission.VIEW, Permission.CONSUME)),
  VIEWER(EnumSet.of(Permission.VIEW));

  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = permissions;
  }

  public boolean grants(Permission permission) {
    return permissions.contains(permission);
  }

  /**
   * The role as written in {@code redrive.toml} and messages: {@code admin}, {@code producer}...
   */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The role named {@code text} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the text and the roles there are
   */
  public static Role parse(String text) {
    for (Role r : values()) {
      if (r.name().equalsIgnoreCase(text)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown role \"" + text + "\" (use admin, producer, consumer or viewer)");
  }
}

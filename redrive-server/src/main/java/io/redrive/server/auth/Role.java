package io.redrive.server.auth;

import java.util.EnumSet;
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
}

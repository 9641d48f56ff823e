package io.refstore.core.archfixture.two;

/**
 * Shares its simple name with {@code archfixture.one.Twin}, which
 * {@code CoreArchitectureTest} must find.
 */
final class Twin {

}

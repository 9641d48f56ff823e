package io.refstore.core.archfixture.one;

/**
 * Shares its simple name with {@code archfixture.two.Twin}, which
 * {@code CoreArchitectureTest} must find.
 */
final class Twin {

}

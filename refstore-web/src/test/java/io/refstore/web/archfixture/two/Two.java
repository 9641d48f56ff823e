package io.refstore.web.archfixture.two;

import io.refstore.web.archfixture.one.One;

/** The other half of the package cycle of {@link One}. */
public final class Two {

	One next;

}

//! Lists written into a string with a separator between their items.

/// Append each of `items` with `push`, `sep` between two.
pub(crate) fn push_joined<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    sep: &str,
    mut push: impl FnMut(&mut String, T),
) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        push(out, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_between_items_only() {
        let mut s = String::from("[");
        push_joined(&mut s, ["a", "b", "c"], ", ", String::push_str);
        s.push(']');
        assert_eq!(s, "[a, b, c]");
        let mut e = String::new();
        push_joined(&mut e, Vec::<&str>::new(), ",", String::push_str);
        assert_eq!(e, "");
    }
}

//! The loading budget: what the pages in the render threads' hands that wait for data (its
//! loader's, or their kept shell's holes) are reckoned to hold, in V8 and beside it,
//! counted against `--loading-budget-mb`. A page is taken only when its part fits; when it
//! does not, the page is answered at once with its fallback (the client-rendered page),
//! never queued behind other visitors' data. A page that waits holds no render thread:
//! only its part of this budget. A page that waits for nothing (no loader) takes no part:
//! the render queue bounds it, so no amount of others' data keeps it out.
//!
//! No one client may hold more than its share: one client address (an IPv6 address's /64,
//! which one subscriber has whole) at most [`ADDRESS_SHARE`] of the budget, one connection
//! at most [`CONNECTION_SHARE`], so a client that opens many slow pages over HTTP/2 streams
//! or many connections leaves the rest to everyone else.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// What a page is reckoned to hold while its data comes: its boot state and visitor, its
/// loader's call and promise, its answer once it comes.
pub const PAGE_BYTES: usize = 16 << 10;

/// What a page streamed without a shell holds besides: React's render of it, started before
/// its data (`renderToPipeableStream`), and the frame it wrote.
pub const STREAMED_RENDER_BYTES: usize = 96 << 10;

/// The part of the budget one client address may hold: a quarter.
pub const ADDRESS_SHARE: usize = 4;
/// The part one connection may hold: a sixteenth (an HTTP/2 connection's 100 streams of
/// pages resumed from kept shells fit in it with room).
pub const CONNECTION_SHARE: usize = 16;

#[derive(Debug)]
pub struct LoadingBudget {
    used: AtomicUsize,
    limit: usize,
    /// What each client address, and each connection, holds now (none once it holds 0).
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    addresses: HashMap<IpAddr, usize>,
    connections: HashMap<SocketAddr, usize>,
}

/// A page's part of the budget, given back when it is dropped (the page ended, however).
#[derive(Debug)]
pub struct Reservation {
    budget: Option<Arc<LoadingBudget>>,
    bytes: usize,
    holder: Option<SocketAddr>,
}

impl Reservation {
    /// No part at all: a page that waits for nothing.
    pub fn none() -> Self {
        Self {
            budget: None,
            bytes: 0,
            holder: None,
        }
    }
}

/// The address a client's share is counted by: an IPv4 address as it is (an IPv4-mapped
/// IPv6 one as its IPv4), an IPv6 address by its /64.
fn client_of(peer: &SocketAddr) -> IpAddr {
    match peer.ip() {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
        v4 => v4,
    }
}

impl LoadingBudget {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            used: AtomicUsize::new(0),
            limit,
            held: Mutex::default(),
        })
    }

    /// `bytes` of the budget for a page of the connection `holder` (none: a page of no
    /// client, counted in the whole only), if they fit: in the whole, in its address's
    /// share and in its connection's.
    pub fn reserve(
        self: &Arc<Self>,
        bytes: usize,
        holder: Option<SocketAddr>,
    ) -> Option<Reservation> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(peer) = &holder {
            let address = held.addresses.get(&client_of(peer)).copied().unwrap_or(0);
            let connection = held.connections.get(peer).copied().unwrap_or(0);
            if address + bytes > self.limit / ADDRESS_SHARE
                || connection + bytes > self.limit / CONNECTION_SHARE
            {
                return None;
            }
        }
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .ok()?;
        if let Some(peer) = &holder {
            *held.addresses.entry(client_of(peer)).or_default() += bytes;
            *held.connections.entry(*peer).or_default() += bytes;
        }
        Some(Reservation {
            budget: Some(self.clone()),
            bytes,
            holder,
        })
    }

    /// What the pages in hand hold now, by the reckoning.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    fn give_back(&self, bytes: usize, holder: Option<SocketAddr>) {
        if let Some(peer) = holder {
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            less(&mut held.addresses, client_of(&peer), bytes);
            less(&mut held.connections, peer, bytes);
        }
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// `bytes` fewer held under `key`, which is forgotten once it holds nothing.
fn less<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K, bytes: usize) {
    if let Some(held) = map.get_mut(&key) {
        *held = held.saturating_sub(bytes);
        if *held == 0 {
            map.remove(&key);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if let Some(budget) = &self.budget {
            budget.give_back(self.bytes, self.holder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(text: &str) -> Option<SocketAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn pages_are_taken_while_their_parts_fit_and_give_them_back_when_they_end() {
        let budget = LoadingBudget::new(3 * PAGE_BYTES);
        let pages: Vec<_> = (0..3)
            .map(|_| budget.reserve(PAGE_BYTES, None).unwrap())
            .collect();
        assert!(budget.reserve(1, None).is_none(), "full");
        drop(pages);
        assert_eq!(budget.used(), 0);
        let streamed = budget.reserve(PAGE_BYTES + STREAMED_RENDER_BYTES, None);
        assert!(
            streamed.is_none(),
            "a part larger than the whole never fits"
        );
    }

    #[test]
    fn one_connection_and_one_address_hold_at_most_their_share() {
        let budget = LoadingBudget::new(64 * PAGE_BYTES);
        let one = peer("192.0.2.1:4000");
        let kept: Vec<_> = (0..4)
            .map(|_| budget.reserve(PAGE_BYTES, one).unwrap())
            .collect();
        assert!(
            budget.reserve(PAGE_BYTES, one).is_none(),
            "a sixteenth: 4 pages"
        );
        // The same address's other connections, up to a quarter: 16 pages.
        let mut more = Vec::new();
        for port in 4001..4004 {
            let other = peer(&format!("192.0.2.1:{port}"));
            more.extend((0..4).map(|_| budget.reserve(PAGE_BYTES, other).unwrap()));
        }
        assert!(
            budget.reserve(PAGE_BYTES, peer("192.0.2.1:4005")).is_none(),
            "a quarter"
        );
        // Everyone else still has the rest.
        let others: Vec<_> = (0..4)
            .map(|port| {
                budget
                    .reserve(PAGE_BYTES, peer(&format!("192.0.2.9:{port}")))
                    .unwrap()
            })
            .collect();
        assert_eq!(budget.used(), 20 * PAGE_BYTES);
        drop((kept, more, others));
        assert_eq!(budget.used(), 0);
        assert!(budget.held.lock().unwrap().addresses.is_empty());
        assert!(budget.held.lock().unwrap().connections.is_empty());
        assert!(budget.reserve(PAGE_BYTES, one).is_some(), "given back");
    }

    #[test]
    fn an_ipv6_client_is_its_slash_64() {
        let budget = LoadingBudget::new(64 * PAGE_BYTES);
        let held: Vec<_> = (0..16)
            .map(|i| {
                let address = format!("[2001:db8:1:2::{i:x}]:443");
                budget.reserve(PAGE_BYTES, peer(&address)).unwrap()
            })
            .collect();
        assert!(
            budget
                .reserve(PAGE_BYTES, peer("[2001:db8:1:2:ffff::1]:443"))
                .is_none()
        );
        assert!(
            budget
                .reserve(PAGE_BYTES, peer("[2001:db8:1:3::1]:443"))
                .is_some()
        );
        assert_eq!(
            client_of(&"[::ffff:192.0.2.1]:1".parse().unwrap()),
            "192.0.2.1".parse::<IpAddr>().unwrap()
        );
        drop(held);
    }
}
